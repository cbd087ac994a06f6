import ConstellationModel
import Foundation
import Logging
import NIOCore
import Store
import Synchronization

/// The live feeds of people watching their own connections (`GET /v1/me/stream`), so that whoever
/// shows their code learns at once that it worked. One reader for everyone watching, on this
/// server, asks the database twice a second for the connections made since (any server may have
/// made them) and hands each to the watchers of its two ends. As with `EventFeeds`: a connection
/// whose id was taken before a later one's but committed after it is awaited for
/// `lateCommitWindow`; a watcher more than `bufferLimit` messages behind is let go (it comes back
/// with `Last-Event-ID`); each credential may hold `streamsPerCredential` streams at once.
package final class PersonalFeeds: Sendable {
    private struct State {
        var watchers: [UUID: [UUID: AsyncStream<EventFeeds.Message>.Continuation]] = [:]
        var position: Int64 = 0
        var reader: Task<Void, Never>?
        /// Open streams by credential.
        var streams: [UUID: Int] = [:]
    }

    private let state = Mutex(State())
    private let connections: ConnectionRepository
    private let logger: Logger
    let interval: Duration
    let bufferLimit: Int
    let streamsPerCredential: Int
    let lateCommitWindow: Duration = .seconds(10)
    let keepAlive: Duration = .seconds(15)

    package init(
        connections: ConnectionRepository, logger: Logger, interval: Duration = .milliseconds(500), bufferLimit: Int = 1_000,
        streamsPerCredential: Int = 4
    ) {
        self.connections = connections
        self.logger = logger
        self.interval = interval
        self.bufferLimit = bufferLimit
        self.streamsPerCredential = streamsPerCredential
    }

    /// Starts watching `profile`'s new connections for `credential` (the reader starts with the first
    /// watcher, from `start` when it is not running yet): the id live messages follow from, and the
    /// messages. Ending the iteration, the stream's end or `ended` stops watching. 429
    /// `too_many_streams` past `streamsPerCredential`.
    package func watch(
        _ profile: UUID, from start: Int64, credential: UUID, until ended: EventLoopFuture<Void>? = nil
    ) throws -> (Int64, AsyncStream<EventFeeds.Message>) {
        let (stream, continuation) = AsyncStream<EventFeeds.Message>.makeStream(bufferingPolicy: .bufferingOldest(bufferLimit))
        let watcher = UUID()
        let position = state.withLock { state -> Int64? in
            guard state.streams[credential, default: 0] < streamsPerCredential else { return nil }
            state.streams[credential, default: 0] += 1
            state.watchers[profile, default: [:]][watcher] = continuation
            if state.reader == nil {
                state.position = start
                state.reader = Task { [self] in await read(from: start) }
            }
            return state.position
        }
        guard let position else { throw EventFeeds.tooManyStreams(streamsPerCredential) }
        continuation.onTermination = { [self] _ in stopWatching(profile, watcher, credential: credential) }
        ended?.whenComplete { _ in continuation.finish() }
        return (position, stream)
    }

    /// How many are watching their connections now.
    package var watcherCount: Int {
        state.withLock { $0.watchers.values.reduce(0) { $0 + $1.count } }
    }

    private func stopWatching(_ profile: UUID, _ watcher: UUID, credential: UUID) {
        let reader = state.withLock { state -> Task<Void, Never>? in
            state.streams[credential, default: 1] -= 1
            if state.streams[credential] == 0 { state.streams[credential] = nil }
            state.watchers[profile]?[watcher] = nil
            if state.watchers[profile]?.isEmpty == true { state.watchers[profile] = nil }
            guard state.watchers.isEmpty, let reader = state.reader else { return nil }
            state.reader = nil
            return reader
        }
        reader?.cancel()
    }

    /// Hands `connection` to the watchers of its ends (each sees the other as the peer); a watcher
    /// too far behind is let go. A keep-alive (`connection` nil) goes to everyone.
    private func deliver(_ connection: FedConnection?) throws {
        let messages = try connection.map { connection in
            try [connection.a.id, connection.b.id].map { profile in (profile, try Self.message(connection.seen(by: profile))) }
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
        state.withLock { $0.watchers[connection.a.id] != nil || $0.watchers[connection.b.id] != nil }
    }

    /// The reader: new connections (and those that committed late), a keep-alive when quiet.
    private func read(from start: Int64) async {
        var position = start
        var missing: [Int64: ContinuousClock.Instant] = [:]
        var lastSent = ContinuousClock.now
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
                var more = true
                while more {
                    let found = try await connections.connections(after: position, orAmong: missing.keys.sorted(), limit: 1_000)
                    for connection in found {
                        if connection.id > position {
                            if connection.id - position <= 10_000 {
                                for skipped in (position + 1)..<connection.id { missing[skipped] = .now }
                            }
                            position = connection.id
                        } else {
                            missing[connection.id] = nil
                        }
                        if watched(connection) {
                            try deliver(connection)
                            lastSent = .now
                        }
                    }
                    more = found.count == 1_000
                }
                state.withLock { [position] in $0.position = position }
                let expired = ContinuousClock.now - lateCommitWindow
                missing = missing.filter { $0.value > expired }
                if ContinuousClock.now - lastSent >= keepAlive {
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
