import ConstellationModel
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Store
import Synchronization

/// The live feeds of people watching their own connections (`GET /v1/me/stream`), so that whoever
/// shows their code learns at once that it worked. One reader for everyone watching, on this
/// server, asks the database twice a second for the connections made since (any server may have
/// made them) and hands each to the watchers of its two ends. As with `EventFeeds`: an id taken
/// before a later one's but committed after it is awaited (`LateCommits`); a watcher more than
/// `bufferLimit` messages behind is let go (it comes back with `Last-Event-ID`), and so is every
/// watcher after `lifetime`; each credential may hold a few streams at once (`CredentialAllowance`).
/// Each watcher gets a keep-alive when nothing was sent to it for `keepAlive`, whatever others are
/// sent: on a busy day somebody is always being scanned, and a phone that is not must still hear
/// that its stream is alive (its page takes 45 s of silence for a cut). The reader runs in this
/// service (`run()`, in the application's service group), which ends every stream when the server
/// shuts down.
package final class PersonalFeeds: Service {
    /// One open stream: where its messages go, and when it was last sent one.
    private struct Watcher {
        let continuation: AsyncStream<FeedMessage>.Continuation
        var lastSent: ContinuousClock.Instant
    }

    private struct State {
        /// Watchers by profile, then by stream.
        var watchers: [UUID: [UUID: Watcher]] = [:]
        var position: Int64 = 0
        /// The reader: one that finds another here (or none) has been let go, and stops.
        var reader: UUID?

        /// Yields `message` to the watchers of `profile` that `want` it, noting when; returns those too
        /// far behind to take it (their streams are to be ended, outside the lock).
        mutating func send(
            _ message: FeedMessage, at now: ContinuousClock.Instant, toWatchersOf profile: UUID,
            where want: (Watcher) -> Bool
        ) -> [AsyncStream<FeedMessage>.Continuation] {
            guard let streams = watchers[profile] else { return [] }
            var behind: [AsyncStream<FeedMessage>.Continuation] = []
            for (id, watcher) in streams where want(watcher) {
                if !watcher.continuation.offer(message) { behind.append(watcher.continuation) }
                // In place, and only for those sent to: a keep-alive round leaves the quiet untouched.
                watchers[profile]?[id]?.lastSent = now
            }
            return behind
        }
    }

    private let state = Mutex(State())
    private let connections: ConnectionRepository
    private let logger: Logger
    private let watches: FeedWatches
    private var settings: FeedSettings { watches.settings }
    private let readers = FeedReaders()

    init(connections: ConnectionRepository, logger: Logger, settings: FeedSettings = FeedSettings(), slots: StreamSlots) {
        self.connections = connections
        self.logger = logger
        watches = FeedWatches(settings: settings, slots: slots)
    }

    /// Starts watching `profile`'s new connections for `credential` (the reader starts with the first
    /// watcher, from `start` when it is not running yet): the id live messages follow from, and the
    /// messages. Ending the iteration, the stream's end, `ended` or the watch's `lifetime` stops
    /// watching. 429 `too_many_streams` past `streamsPerCredential`.
    package func watch(
        _ profile: UUID, from start: Int64, credential: UUID, until ended: EventLoopFuture<Void>? = nil
    ) throws -> (Int64, AsyncStream<FeedMessage>) {
        let watcher = UUID()
        let ((position, newReader), stream) = try watches.open(for: credential, until: ended) { continuation in
            state.withLock { state -> (Int64, UUID?) in
                state.watchers[profile, default: [:]][watcher] = Watcher(continuation: continuation, lastSent: .now)
                guard state.reader == nil else { return (state.position, nil) }
                let reader = UUID()
                state.position = start
                state.reader = reader
                return (start, reader)
            }
        } unregister: { [self] in
            stopWatching(profile, watcher)
        }
        if let newReader { readers.start { [self] in await read(from: start, as: newReader) } }
        return (position, stream)
    }

    /// How many are watching their connections now.
    package var watcherCount: Int {
        state.withLock { $0.watchers.values.reduce(0) { $0 + $1.count } }
    }

    /// Runs the reader until the server shuts down, then ends every watcher's stream.
    package func run() async {
        await readers.run {
            let watchers = state.withLock { state in
                defer {
                    state.watchers = [:]
                    state.reader = nil
                }
                return state.watchers.values.flatMap(\.values)
            }
            for watcher in watchers { watcher.continuation.finish() }
        }
    }

    private func stopWatching(_ profile: UUID, _ watcher: UUID) {
        state.withLock { state in
            state.watchers[profile]?[watcher] = nil
            if state.watchers[profile]?.isEmpty == true { state.watchers[profile] = nil }
            if state.watchers.isEmpty { state.reader = nil }
        }
    }

    /// Hands `connection` to the watchers of the ends to be told of it (`toldEnds`: not whoever
    /// scanned; each sees the other as the peer); a watcher too far behind is let go.
    private func deliver(_ connection: FedConnection) throws {
        let messages = try connection.toldEnds.map { profile in (profile, try Self.message(connection.seen(by: profile))) }
        let now = ContinuousClock.now
        let behind = state.withLock { state in
            messages.flatMap { profile, message in
                state.send(message, at: now, toWatchersOf: profile) { _ in true }
            }
        }
        for continuation in behind { continuation.finish() }
    }

    /// A keep-alive comment to every watcher sent nothing for `keepAlive`.
    private func keepAlive() {
        let now = ContinuousClock.now
        let quiet = settings.keepAlive
        let behind = state.withLock { state in
            var behind: [AsyncStream<FeedMessage>.Continuation] = []
            for profile in Array(state.watchers.keys) {
                behind += state.send(.keepAlive, at: now, toWatchersOf: profile) { now - $0.lastSent >= quiet }
            }
            return behind
        }
        for continuation in behind { continuation.finish() }
    }

    private func watched(_ connection: FedConnection) -> Bool {
        state.withLock { state in connection.toldEnds.contains { state.watchers[$0] != nil } }
    }

    /// The reader: new connections (and those that committed late, `LateCommits`), a keep-alive
    /// when quiet; until nobody watches.
    private func read(from start: Int64, as reader: UUID) async {
        var ids = LateCommits(from: start)
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: settings.interval)
                guard state.withLock({ $0.reader == reader }) else { return }
                var more = true
                while more {
                    let found = try await connections.connections(after: ids.position, orAmong: ids.awaited, limit: 1_000)
                    for connection in found {
                        ids.saw(connection.id)
                        if watched(connection) { try deliver(connection) }
                    }
                    more = found.count == 1_000
                }
                state.withLock { [position = ids.position] state in
                    if state.reader == reader { state.position = position }
                }
                ids.expire()
                keepAlive()
            } catch is CancellationError {
                return
            } catch {
                logger.warning("personal feed: reading new connections failed; retrying", metadata: ["error": "\(error)"])
            }
        }
    }

    /// `id: <connection id>`, `event: connection`, `data:` the connection as its watcher sees it.
    static func message(_ connection: Connection) throws -> FeedMessage {
        try .connection(id: connection.id, connection)
    }
}
