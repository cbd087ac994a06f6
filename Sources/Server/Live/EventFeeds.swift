import ConstellationModel
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Store
import Synchronization

/// The live feeds of the events being watched (`GET /v1/events/{event}/stream`): one reader per
/// watched event, however many watch it, asks the database twice a second for the pairs recorded
/// since, and hands each watcher the same encoded messages. A watcher that falls more than
/// `bufferLimit` messages behind is let go (its stream ends; it comes back with `Last-Event-ID`
/// and reads what it missed from the database), so a client that never reads costs a bounded buffer;
/// so is every watcher after the settings' `lifetime`. The readers run in this service (`run()`,
/// in the application's service group), which ends every stream when the server shuts down.
package final class EventFeeds: Service {
    private struct Feed {
        var watchers: [UUID: AsyncStream<FeedMessage>.Continuation]
        var position: FeedPosition
        /// Its reader: one that finds another here (or no feed) has been let go, and stops.
        let reader: UUID
    }

    /// A feed per event and per way of showing people (names for organizers; for a wall, names of those on it and no pseudonym).
    private struct FeedKey: Hashable {
        let event: UUID
        let showsNames: Bool
    }

    private struct State {
        var feeds: [FeedKey: Feed] = [:]
    }

    private let state = Mutex(State())
    private let events: EventRepository
    private let identity: @Sendable () -> EventIdentity
    private let logger: Logger
    private let watches: FeedWatches
    private var settings: FeedSettings { watches.settings }
    private let readers = FeedReaders()

    package init(
        events: EventRepository, identity: @escaping @Sendable () -> EventIdentity, logger: Logger, settings: FeedSettings = FeedSettings(),
        slots: StreamSlots
    ) {
        self.events = events
        self.identity = identity
        self.logger = logger
        watches = FeedWatches(settings: settings, slots: slots)
    }

    /// Starts watching `event` for `credential` (the event's reader starts with its first watcher):
    /// the position live messages follow from, and the messages. Ending the iteration, the stream's
    /// end, `ended` (its client gone) or the watch's `lifetime` stops watching and frees the
    /// credential's slot. 429 `too_many_streams` past `streamsPerCredential` (or `limit`, a view
    /// link's screens, for a link).
    package func watch(
        _ event: UUID, from start: FeedPosition, showingNames: Bool, credential: UUID, limit: Int? = nil,
        until ended: EventLoopFuture<Void>? = nil
    ) throws -> (
        FeedPosition, AsyncStream<FeedMessage>
    ) {
        let key = FeedKey(event: event, showsNames: showingNames)
        let watcher = UUID()
        let ((position, newReader), stream) = try watches.open(for: credential, limit: limit, until: ended) { continuation in
            state.withLock { state -> (FeedPosition, UUID?) in
                let isNew = state.feeds[key] == nil
                var feed = state.feeds[key] ?? Feed(watchers: [:], position: start, reader: UUID())
                feed.watchers[watcher] = continuation
                state.feeds[key] = feed
                return (feed.position, isNew ? feed.reader : nil)
            }
        } unregister: { [self] in
            stopWatching(key, watcher)
        }
        if let newReader { readers.start { [self] in await read(key, from: start, as: newReader) } }
        return (position, stream)
    }

    /// How many are watching `event` now.
    package func watcherCount(of event: UUID) -> Int {
        state.withLock { state in state.feeds.filter { $0.key.event == event }.reduce(0) { $0 + $1.value.watchers.count } }
    }

    /// Runs the readers until the server shuts down, then ends every watcher's stream.
    package func run() async {
        await readers.run {
            let watchers = state.withLock { state in
                defer { state.feeds = [:] }
                return state.feeds.values.flatMap(\.watchers.values)
            }
            for watcher in watchers { watcher.finish() }
        }
    }

    private func stopWatching(_ event: FeedKey, _ watcher: UUID) {
        state.withLock { state in
            state.feeds[event]?.watchers[watcher] = nil
            if state.feeds[event]?.watchers.isEmpty == true { state.feeds[event] = nil }
        }
    }

    /// Whether `reader` is still `event`'s.
    private func reads(_ event: FeedKey, as reader: UUID) -> Bool {
        state.withLock { $0.feeds[event]?.reader == reader }
    }

    /// Sends `message` to every watcher of `event`, if `reader` is still its reader; one too far behind is let go.
    private func broadcast(_ message: FeedMessage, to event: FeedKey, position: FeedPosition, from reader: UUID) {
        let behind = state.withLock { state -> [AsyncStream<FeedMessage>.Continuation] in
            guard state.feeds[event]?.reader == reader else { return [] }
            state.feeds[event]?.position = position
            return state.feeds[event]?.watchers.values.filter { !$0.offer(message) } ?? []
        }
        for continuation in behind { continuation.finish() }
    }

    /// Sends `message` to every watcher of `event` and ends their streams, if `reader` is still its reader.
    private func end(_ event: FeedKey, with message: FeedMessage, from reader: UUID) {
        let watchers = state.withLock { state -> [AsyncStream<FeedMessage>.Continuation] in
            guard state.feeds[event]?.reader == reader else { return [] }
            return state.feeds[event].map { Array($0.watchers.values) } ?? []
        }
        for watcher in watchers {
            watcher.yield(message)
            watcher.finish()
        }
    }

    /// The reader of one event: new pairs (and pairs that committed late, `LateCommits`), `changed`
    /// when pairs went or moved or someone stopped being named or shown (what the screens show must
    /// go at once), a keep-alive comment when quiet; until nobody watches, or the event is purged
    /// (`event: purged`, and every stream of it ends).
    private func read(_ key: FeedKey, from start: FeedPosition, as reader: UUID) async {
        let event = key.event
        var shown = start
        var numbers = LateCommits(from: start.seq)
        var lastSent = ContinuousClock.now
        func position() -> FeedPosition { FeedPosition(seq: numbers.position, revision: shown.revision, choices: shown.choices) }
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: settings.interval)
                guard reads(key, as: reader), let now = try await events.feedPosition(of: event) else { return }
                if now.revision != shown.revision || now.choices != shown.choices {
                    (shown.revision, shown.choices) = (now.revision, now.choices)
                    broadcast(.changed, to: key, position: position(), from: reader)
                    lastSent = .now
                }
                var more = now.seq > numbers.position || !numbers.awaited.isEmpty
                while more {
                    let pairs = try await events.pairs(of: event, after: numbers.position, orAmong: numbers.awaited, limit: 1_000)
                    let faces = try identity().faces(of: pairs, at: event, showingNames: key.showsNames)
                    for pair in pairs {
                        numbers.saw(pair.seq)
                        let message = try Self.connection(pair, faces: faces, lastId: numbers.position)
                        broadcast(message, to: key, position: position(), from: reader)
                        lastSent = .now
                    }
                    more = pairs.count == 1_000
                }
                numbers.expire()
                if ContinuousClock.now - lastSent >= settings.keepAlive {
                    broadcast(.keepAlive, to: key, position: position(), from: reader)
                    lastSent = .now
                }
            } catch is CancellationError {
                return
            } catch StoreError.eventPurged {
                end(key, with: .purged, from: reader)
                return
            } catch {
                logger.warning("event feed: reading new pairs failed; retrying", metadata: ["event.id": "\(event)", "error": "\(error)"])
            }
        }
    }

    /// `id: <lastId>`, `event: connection`, `data:` a `LiveConnection`, with the people as the
    /// event's organizers see them (`EventIdentity`).
    static func connection(_ pair: FedPair, faces: [UUID: EventIdentity.Face], lastId: Int64) throws -> FeedMessage {
        func person(_ id: UUID) -> LiveConnection.Person {
            let face = faces[id] ?? EventIdentity.Face(id: "", label: "", pseudonymous: true)
            return LiveConnection.Person(id: face.id, label: face.label, pseudonymous: face.pseudonymous)
        }
        return try .connection(id: lastId, LiveConnection(seq: pair.seq, at: pair.firstAt, source: person(pair.a), target: person(pair.b)))
    }
}
