internal import CEpoll
import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#endif

/// Waits on one thread of its own, with Linux `epoll`, until the sockets it is asked about can be
/// read or written, and resumes whoever asked. A query in flight then holds no thread of ours:
/// libpq's sockets are watched here together, and many answers arriving at once are picked up in
/// one wake-up instead of one thread's each.
///
/// There is one for the whole process, made when first used and never stopped: its descriptors are
/// never closed, so no number of theirs can be reused by something else (a closed `epoll` whose
/// number the runtime's own `epoll` took would mix their events) while a caller still holds it.
package final class SocketPoller: Sendable {
    /// What a waiter waits for.
    enum Readiness {
        case readable, writable
    }

    /// The process's poller.
    static let shared = SocketPoller()

    private let epoll: Int32
    /// Waiters by socket (one at a time: a socket belongs to the connection lent to one caller),
    /// and why no more can wait, should `epoll` fail; behind a pthread lock, which ThreadSanitizer sees.
    private let waiters = NIOLockedValueBox<(bySocket: [Int32: CheckedContinuation<Void, any Error>], failure: PostgresError?)>(([:], nil))

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else {
            waiters.withLockedValue { $0.failure = Self.failure("cannot watch database sockets") }
            return
        }
        let thread = Thread { [self] in run() }
        thread.name = "postgres-poller"
        thread.start()
    }

    /// Returns once `socket` is ready (or has failed: the caller's next libpq call says how).
    func wait(until readiness: Readiness, socket: Int32) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let refusal: PostgresError? = waiters.withLockedValue { waiters in
                if let failure = waiters.failure { return failure }
                var event = epoll_event()
                event.events = (readiness == .readable ? EPOLLIN.rawValue : EPOLLOUT.rawValue) | EPOLLONESHOT.rawValue
                event.data.fd = socket
                guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else {
                    return Self.failure("cannot watch a database socket")
                }
                waiters.bySocket[socket] = continuation
                return nil
            }
            if let refusal { continuation.resume(throwing: refusal) }
        }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), -1)
            guard count >= 0 else {
                if errno == EINTR { continue }
                // Nothing can be watched any more: every waiter, and every later one, is told so.
                let failure = Self.failure("stopped watching database sockets")
                let left = waiters.withLockedValue { waiters in
                    defer { waiters = ([:], failure) }
                    return Array(waiters.bySocket.values)
                }
                for waiter in left { waiter.resume(throwing: failure) }
                return
            }
            // Each socket is taken off the watch list as it fires: its file descriptor may be closed
            // and reused by another connection before anyone waits on it again.
            let ready: [CheckedContinuation<Void, any Error>] = waiters.withLockedValue { waiters in
                events.prefix(Int(count)).compactMap { event in
                    let socket = event.data.fd
                    guard let waiter = waiters.bySocket.removeValue(forKey: socket) else { return nil }
                    epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
                    return waiter
                }
            }
            for waiter in ready { waiter.resume() }
        }
    }

    private static func failure(_ what: String) -> PostgresError {
        PostgresError(.connectionFailed, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
