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
/// The reader runs in this service (`run()`, in the application's service group), which ends
/// every stream when the server shuts down.
package final class PersonalFeeds: Service {
    private struct State {
        var watchers: [UUID: [UUID: AsyncStream<EventFeeds.Message>.Continuation]] = [:]
        var position: Int64 = 0
        /// The reader: one that finds another here (or none) has been let go, and stops.
        var reader: UUID?
    }

    private let state = Mutex(State())
    private let connections: ConnectionRepository
    private let logger: Logger
    private let settings: FeedSettings
    private let allowance: CredentialAllowance
    private let readers = FeedReaders()

    package init(connections: ConnectionRepository, logger: Logger, settings: FeedSettings = FeedSettings()) {
        self.connections = connections
        self.logger = logger
        self.settings = settings
        allowance = CredentialAllowance(limit: settings.streamsPerCredential)
    }

    /// Starts watching `profile`'s new connections for `credential` (the reader starts with the first
    /// watcher, from `start` when it is not running yet): the id live messages follow from, and the
    /// messages. Ending the iteration, the stream's end, `ended` or the watch's `lifetime` stops
    /// watching. 429 `too_many_streams` past `streamsPerCredential`.
    package func watch(
        _ profile: UUID, from start: Int64, credential: UUID, until ended: EventLoopFuture<Void>? = nil
    ) throws -> (Int64, AsyncStream<EventFeeds.Message>) {
        let (stream, continuation) = AsyncStream<EventFeeds.Message>.makeStream(bufferingPolicy: .bufferingOldest(settings.bufferLimit))
        let watcher = UUID()
        guard allowance.take(credential) else { throw Problem.tooManyStreams(allowance.limit) }
        let (position, newReader) = state.withLock { state -> (Int64, UUID?) in
            state.watchers[profile, default: [:]][watcher] = continuation
            guard state.reader == nil else { return (state.position, nil) }
            let reader = UUID()
            state.position = start
            state.reader = reader
            return (start, reader)
        }
        if let newReader { readers.start { [self] in await read(from: start, as: newReader) } }
        continuation.finish(after: settings.lifetime, orWhen: ended) { [self] in stopWatching(profile, watcher, credential: credential) }
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
            for watcher in watchers { watcher.finish() }
        }
    }

    private func stopWatching(_ profile: UUID, _ watcher: UUID, credential: UUID) {
        allowance.giveBack(credential)
        state.withLock { state in
            state.watchers[profile]?[watcher] = nil
            if state.watchers[profile]?.isEmpty == true { state.watchers[profile] = nil }
            if state.watchers.isEmpty { state.reader = nil }
        }
    }

    /// Hands `connection` to the watchers of the ends to be told of it (`toldEnds`: not whoever
    /// scanned; each sees the other as the peer); a watcher too far behind is let go. A keep-alive
    /// (`connection` nil) goes to everyone.
    private func deliver(_ connection: FedConnection?) throws {
        let messages = try connection.map { connection in
            try connection.toldEnds.map { profile in (profile, try Self.message(connection.seen(by: profile))) }
        }
        let behind = state.withLock { state -> [AsyncStream<EventFeeds.Message>.Continuation] in
            let targets: [(AsyncStream<EventFeeds.Message>.Continuation, EventFeeds.Message)]
            if let messages {
                targets = messages.flatMap { profile, message in (state.watchers[profile] ?? [:]).values.map { ($0, message) } }
            } else {
                targets = state.watchers.values.flatMap { $0.values.map { ($0, EventFeeds.keepAliveComment) } }
            }
            return targets.filter { continuation, message in
                if case .dropped = continuation.yield(message) { return true }
                return false
            }.map(\.0)
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
        var lastSent = ContinuousClock.now
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: settings.interval)
                guard state.withLock({ $0.reader == reader }) else { return }
                var more = true
                while more {
                    let found = try await connections.connections(after: ids.position, orAmong: ids.awaited, limit: 1_000)
                    for connection in found {
                        ids.saw(connection.id)
                        if watched(connection) {
                            try deliver(connection)
                            lastSent = .now
                        }
                    }
                    more = found.count == 1_000
                }
                state.withLock { [position = ids.position] state in
                    if state.reader == reader { state.position = position }
                }
                ids.expire()
                if ContinuousClock.now - lastSent >= EventFeeds.keepAlive {
                    try deliver(nil)
                    lastSent = .now
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("personal feed: reading new connections failed; retrying", metadata: ["error": "\(error)"])
            }
        }
    }

    /// `id: <connection id>`, `event: connection`, `data:` the connection as its watcher sees it.
    static func message(_ connection: Connection) throws -> EventFeeds.Message {
        var bytes = ByteBuffer(string: "id: \(connection.id)\nevent: connection\ndata: ")
        bytes.writeBytes(try JSONEncoder.constellation.encode(connection))
        bytes.writeString("\n\n")
        return EventFeeds.Message(bytes: bytes)
    }
}
