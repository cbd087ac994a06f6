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
package final class SocketPoller: Sendable {
    /// What a waiter waits for.
    enum Readiness {
        case readable, writable
    }

    private let epoll: Int32
    /// An `eventfd` that wakes the thread to stop it.
    private let stopSignal: Int32
    /// Waiters by socket (one at a time: a socket belongs to the connection lent to one caller),
    /// and whether the thread has stopped; behind a pthread lock, which ThreadSanitizer sees.
    private let waiters: NIOLockedValueBox<(bySocket: [Int32: CheckedContinuation<Void, any Error>], stopped: Bool)>
    /// Why there is no thread, when the kernel gave no `epoll` (every wait throws it).
    private let failure: PostgresError?

    init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        stopSignal = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = stopSignal
        guard epoll >= 0, stopSignal >= 0, epoll_ctl(epoll, EPOLL_CTL_ADD, stopSignal, &event) == 0 else {
            failure = PostgresError(.connectionFailed, message: "cannot watch database sockets: \(String(cString: strerror(errno)))")
            if epoll >= 0 { close(epoll) }
            if stopSignal >= 0 { close(stopSignal) }
            waiters = NIOLockedValueBox(([:], true))
            return
        }
        failure = nil
        waiters = NIOLockedValueBox(([:], false))
        let thread = Thread { [self] in run() }
        thread.name = "postgres-poller"
        thread.start()
    }

    /// Returns once `socket` is ready (or has failed: the caller's next libpq call says how).
    /// Throws `shutdown` once the poller has stopped.
    func wait(until readiness: Readiness, socket: Int32) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let refusal: PostgresError? = waiters.withLockedValue { waiters in
                guard !waiters.stopped else { return failure ?? PostgresError(.shutdown, message: "the database connections are closed") }
                var event = epoll_event()
                event.events = (readiness == .readable ? EPOLLIN.rawValue : EPOLLOUT.rawValue) | EPOLLONESHOT.rawValue
                event.data.fd = socket
                guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else {
                    return PostgresError(.connectionFailed, message: "cannot watch a database socket: \(String(cString: strerror(errno)))")
                }
                waiters.bySocket[socket] = continuation
                return nil
            }
            if let refusal { continuation.resume(throwing: refusal) }
        }
    }

    /// Stops the thread; whoever still waits gets `shutdown`.
    func stop() {
        guard failure == nil else { return }
        var one: UInt64 = 1
        _ = write(stopSignal, &one, MemoryLayout<UInt64>.size)
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var stopping = false
        while !stopping {
            let count = epoll_wait(epoll, &events, Int32(events.count), -1)
            guard count >= 0 else {
                if errno == EINTR { continue }
                break
            }
            // Each socket is taken off the watch list as it fires: its file descriptor may be closed
            // and reused by another connection before anyone waits on it again.
            let ready: [CheckedContinuation<Void, any Error>] = waiters.withLockedValue { waiters in
                var ready: [CheckedContinuation<Void, any Error>] = []
                for event in events.prefix(Int(count)) {
                    let socket = event.data.fd
                    if socket == stopSignal {
                        stopping = true
                    } else if let waiter = waiters.bySocket.removeValue(forKey: socket) {
                        epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
                        ready.append(waiter)
                    }
                }
                return ready
            }
            for waiter in ready { waiter.resume() }
        }
        let left = waiters.withLockedValue { waiters in
            waiters.stopped = true
            defer { waiters.bySocket.removeAll() }
            return Array(waiters.bySocket.values)
        }
        for waiter in left { waiter.resume(throwing: PostgresError(.shutdown, message: "the database connections are closed")) }
        close(epoll)
        close(stopSignal)
    }
}
