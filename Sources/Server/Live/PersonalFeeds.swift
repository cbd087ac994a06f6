import ConstellationModel
import Foundation
import Logging
import NIOCore
import Store
import Synchronization

/// The live feeds of people watching their own connections (`GET /v1/me/stream`), so that whoever
/// shows their code learns at once that it worked. One reader for everyone watching, on this
/// server, asks the database twice a second for the connections made since (any server may have
/// made them) and hands each to the watchers of its two ends. As with `EventFeeds`: an id taken
/// before a later one's but committed after it is awaited (`LateCommits`); a watcher more than
/// `bufferLimit` messages behind is let go (it comes back with `Last-Event-ID`), and so is every
/// watcher after `lifetime`; each credential may hold a few streams at once (`CredentialAllowance`).
package final class PersonalFeeds: Sendable {
    private struct State {
        var watchers: [UUID: [UUID: AsyncStream<EventFeeds.Message>.Continuation]] = [:]
        var position: Int64 = 0
        var reader: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let connections: ConnectionRepository
    private let logger: Logger
    private let settings: FeedSettings
    private let allowance: CredentialAllowance

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
        let position = state.withLock { state -> Int64 in
            state.watchers[profile, default: [:]][watcher] = continuation
            if state.reader == nil {
                state.position = start
                state.reader = Task { [self] in await read(from: start) }
            }
            return state.position
        }
        continuation.finish(after: settings.lifetime, orWhen: ended) { [self] in stopWatching(profile, watcher, credential: credential) }
        return (position, stream)
    }

    /// How many are watching their connections now.
    package var watcherCount: Int {
        state.withLock { $0.watchers.values.reduce(0) { $0 + $1.count } }
    }

    private func stopWatching(_ profile: UUID, _ watcher: UUID, credential: UUID) {
        allowance.giveBack(credential)
        let reader = state.withLock { state -> Task<Void, Never>? in
            state.watchers[profile]?[watcher] = nil
            if state.watchers[profile]?.isEmpty == true { state.watchers[profile] = nil }
            guard state.watchers.isEmpty, let reader = state.reader else { return nil }
            state.reader = nil
            return reader
        }
        reader?.cancel()
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
    /// when quiet.
    private func read(from start: Int64) async {
        var ids = LateCommits(from: start)
        var lastSent = ContinuousClock.now
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: settings.interval)
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
                state.withLock { [position = ids.position] in $0.position = position }
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
