import ConstellationModel
import Foundation
import Logging
import NIOCore
import Store
import Synchronization

/// The live feeds of the events being watched (`GET /v1/events/{event}/stream`): one reader per
/// watched event, however many watch it, asks the database twice a second for the pairs recorded
/// since, and hands each watcher the same encoded messages. A watcher that falls more than
/// `bufferLimit` messages behind is let go (its stream ends; it comes back with `Last-Event-ID`
/// and reads what it missed from the database), so a client that never reads costs a bounded buffer.
package final class EventFeeds: Sendable {
    /// One Server-Sent Events message, encoded once for every watcher.
    package struct Message: Sendable {
        let bytes: ByteBuffer
    }

    private struct Feed {
        var watchers: [UUID: AsyncStream<Message>.Continuation]
        var position: FeedPosition
        var reader: Task<Void, Never>?
    }

    /// A feed per event and per way of showing people (names for organizers, pseudonyms only for a wall).
    private struct FeedKey: Hashable {
        let event: UUID
        let showsNames: Bool
    }

    private struct State {
        var feeds: [FeedKey: Feed] = [:]
        /// Open streams by credential (a profile id, or a view token's id).
        var streams: [UUID: Int] = [:]
    }

    private let state = Mutex(State())
    private let events: EventRepository
    private let identity: @Sendable () -> EventIdentity
    private let logger: Logger
    let interval: Duration
    let bufferLimit: Int
    /// How many streams one credential may hold open at once (past it, 429 `too_many_streams`).
    let streamsPerCredential: Int
    /// How long a missing pair number is awaited (a redemption that took its number, then committed
    /// after later ones) before it counts as a gap (a rolled-back or duplicate insert uses one up too).
    let lateCommitWindow: Duration = .seconds(10)
    /// A comment sent this often keeps proxies from closing a quiet stream.
    let keepAlive: Duration = .seconds(15)

    package init(
        events: EventRepository, identity: @escaping @Sendable () -> EventIdentity, logger: Logger,
        interval: Duration = .milliseconds(500), bufferLimit: Int = 1_000, streamsPerCredential: Int = 4
    ) {
        self.events = events
        self.streamsPerCredential = streamsPerCredential
        self.identity = identity
        self.logger = logger
        self.interval = interval
        self.bufferLimit = bufferLimit
    }

    /// Starts watching `event` for `credential` (the event's reader starts with its first watcher):
    /// the position live messages follow from, and the messages. Ending the iteration, the stream's
    /// end or `ended` (the client's connection closing) stops watching and frees the credential's
    /// slot. 429 `too_many_streams` past `streamsPerCredential`.
    package func watch(
        _ event: UUID, from start: FeedPosition, showingNames: Bool, credential: UUID, until ended: EventLoopFuture<Void>? = nil
    ) throws -> (
        FeedPosition, AsyncStream<Message>
    ) {
        let key = FeedKey(event: event, showsNames: showingNames)
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: .bufferingOldest(bufferLimit))
        let watcher = UUID()
        let position = state.withLock { state -> FeedPosition? in
            guard state.streams[credential, default: 0] < streamsPerCredential else { return nil }
            state.streams[credential, default: 0] += 1
            var feed = state.feeds[key] ?? Feed(watchers: [:], position: start, reader: nil)
            feed.watchers[watcher] = continuation
            if feed.reader == nil {
                feed.reader = Task { [self] in await read(key, from: start) }
            }
            state.feeds[key] = feed
            return feed.position
        }
        guard let position else { throw Self.tooManyStreams(streamsPerCredential) }
        continuation.onTermination = { [self] _ in stopWatching(key, watcher, credential: credential) }
        ended?.whenComplete { _ in continuation.finish() }
        return (position, stream)
    }

    /// 429 `too_many_streams`: a credential holds `limit` streams already.
    static func tooManyStreams(_ limit: Int) -> Problem {
        Problem(
            status: 429, code: "too_many_streams", title: "Too many live streams open at once",
            detail: "Close another live view first (at most \(limit) at a time).", retryAfter: 5)
    }

    /// How many are watching `event` now.
    package func watcherCount(of event: UUID) -> Int {
        state.withLock { state in state.feeds.filter { $0.key.event == event }.reduce(0) { $0 + $1.value.watchers.count } }
    }

    private func stopWatching(_ event: FeedKey, _ watcher: UUID, credential: UUID) {
        let reader = state.withLock { state -> Task<Void, Never>? in
            state.streams[credential, default: 1] -= 1
            if state.streams[credential] == 0 { state.streams[credential] = nil }
            state.feeds[event]?.watchers[watcher] = nil
            guard let feed = state.feeds[event], feed.watchers.isEmpty else { return nil }
            state.feeds[event] = nil
            return feed.reader
        }
        reader?.cancel()
    }

    /// Sends `message` to every watcher of `event`; one too far behind is let go.
    private func broadcast(_ message: Message, to event: FeedKey, position: FeedPosition) {
        let behind = state.withLock { state -> [AsyncStream<Message>.Continuation] in
            state.feeds[event]?.position = position
            return state.feeds[event]?.watchers.values.filter { continuation in
                if case .dropped = continuation.yield(message) { return true }
                return false
            } ?? []
        }
        for continuation in behind { continuation.finish() }
    }

    /// The reader of one event: new pairs (and pairs that committed late, within `lateCommitWindow`),
    /// `changed` when pairs went or moved, a keep-alive comment when quiet.
    private func read(_ key: FeedKey, from start: FeedPosition) async {
        let event = key.event
        var position = start
        var missing: [Int64: ContinuousClock.Instant] = [:]
        var lastSent = ContinuousClock.now
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
                guard let now = try await events.feedPosition(of: event) else { return }
                if now.revision != position.revision {
                    position.revision = now.revision
                    broadcast(Self.changed, to: key, position: position)
                    lastSent = .now
                }
                var more = now.seq > position.seq || !missing.isEmpty
                while more {
                    let awaited = missing.keys.sorted()
                    let pairs = try await events.pairs(of: event, after: position.seq, orAmong: awaited, limit: 1_000)
                    let faces = try identity().faces(of: pairs, at: event, showingNames: key.showsNames)
                    for pair in pairs {
                        if pair.seq > position.seq {
                            if pair.seq - position.seq <= 10_000 {
                                for skipped in (position.seq + 1)..<pair.seq { missing[skipped] = .now }
                            }
                            position.seq = pair.seq
                        } else {
                            missing[pair.seq] = nil
                        }
                        broadcast(try Self.connection(pair, faces: faces, lastId: position.seq), to: key, position: position)
                        lastSent = .now
                    }
                    more = pairs.count == 1_000
                }
                let expired = ContinuousClock.now - lateCommitWindow
                missing = missing.filter { $0.value > expired }
                if ContinuousClock.now - lastSent >= keepAlive {
                    broadcast(Self.keepAliveComment, to: key, position: position)
                    lastSent = .now
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("event feed: reading new pairs failed; retrying", metadata: ["event.id": "\(event)", "error": "\(error)"])
            }
        }
    }

    static let changed = Message(bytes: ByteBuffer(string: "event: changed\ndata: {}\n\n"))
    static let keepAliveComment = Message(bytes: ByteBuffer(string: ": keep-alive\n\n"))

    /// `id: <lastId>`, `event: connection`, `data:` a `LiveConnection`, with the people as the
    /// event's organizers see them (`EventIdentity`).
    static func connection(_ pair: FedPair, faces: [UUID: EventIdentity.Face], lastId: Int64) throws -> Message {
        func person(_ id: UUID) -> LiveConnection.Person {
            let face = faces[id] ?? EventIdentity.Face(id: "", label: "")
            return LiveConnection.Person(id: face.id, label: face.label)
        }
        let data = try JSONEncoder.constellation.encode(
            LiveConnection(seq: pair.seq, at: pair.firstAt, source: person(pair.a), target: person(pair.b)))
        var bytes = ByteBuffer(string: "id: \(lastId)\nevent: connection\ndata: ")
        bytes.writeBytes(data)
        bytes.writeString("\n\n")
        return Message(bytes: bytes)
    }
}
