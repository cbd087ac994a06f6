import Foundation
import Graph
import Logging
import Store
import Synchronization

/// Each event's latest picture, shared by every server of a deployment through PostgreSQL
/// (`EventPictureRepository`, migration 0023), so that screens behind a load balancer see one
/// picture, and one server lays out the next while the others serve the last.
///
/// A server serves the stored picture when it placed the graph as it is now, when it is younger
/// than the picture interval, or while another server makes the next; then the graph it draws is
/// today's, restricted to the people the picture placed (pairs among them made since are drawn,
/// people who came since wait for the next picture). Otherwise it takes the lease, reads the
/// graph again (whoever left or was erased before the lease is not placed; whoever leaves after
/// it ends the lease, and the picture is not saved), lays it out warm-started from the last
/// picture, and saves it if its lease is still the latest; the request that started it waits
/// for it at most `freshPictureWait` and is then answered with the last picture, the next one
/// being made behind the answer, on the background thread (no screen waits for a layout, and no
/// request's graph work waits behind one). The first picture of an event is
/// waited for while another server makes it, up to `firstPictureWait`; past that, laid out here
/// and not stored. A grown picture of a graph unchanged for `settleAfter` is settled the same way
/// (checked against a fresh layout, redrawn if it falls short), its answers `behind` until it is.
/// Each server keeps the pictures it last made or read, so an unchanged picture is read from the
/// database once.
package actor StoredEventPictures {
    typealias Picture = SubgraphLayouts.Picture

    private struct Kept {
        /// The lease generation it was saved under; nil when it is not the stored one.
        let generation: Int64?
        let fingerprint: Int64
        let picture: Picture
        var lastUse: UInt64
    }

    private var kept: [UUID: Kept] = [:]
    private var clock: UInt64 = 0
    private let store: EventPictureRepository
    private let compute: GraphComputation
    private let logger: Logger
    /// Who this server is in the lease's `maker` column: its host and process.
    let maker: String
    /// How old a picture of another graph may be before the next is made.
    let interval: Duration
    /// How long a lease lasts: a server killed mid-picture holds up the next one this long at most.
    let lease: Duration
    let capacity: Int
    /// How long a request waits for another server's first picture of an event before it lays one
    /// out itself (its maker may have died: its lease holds the next one up for longer).
    static let firstPictureWait = Duration.seconds(10)

    /// The farthest a stored place may lie from the centre. A fresh layout spans [-1, 1]² and a
    /// grown one keeps its frame, growing with it; two places at ±10³⁰⁸ (finite) made the next
    /// picture's distances infinite and its places NaN.
    static let farthestPlace = 1e6
    /// How long a request that starts the next picture waits for it before it is answered with
    /// the picture there is (with a picture interval of zero, until it is made): a small event's
    /// next picture is made within it, a large one's behind the answer.
    package private(set) var freshPictureWait = Duration.milliseconds(250)
    /// How long the graph stays as a grown picture placed it before that picture is settled
    /// (`SubgraphLayouts.Picture.settled`): checked against a fresh layout, and redrawn if it
    /// keeps too little of its quality. A screen asks again after a grown picture once it is quiet
    /// for as long (live.js's `SETTLE_MS`, a little longer).
    package private(set) var settleAfter = Duration.seconds(10)
    /// How many pictures this server laid out (for tests).
    package private(set) var made = 0

    init(
        store: EventPictureRepository, compute: GraphComputation, interval: Duration, lease: Duration = .seconds(30),
        capacity: Int = 256, logger: Logger
    ) {
        self.store = store
        self.compute = compute
        self.interval = interval
        self.lease = lease
        self.capacity = capacity
        self.logger = logger
        maker = "\(ProcessInfo.processInfo.hostName) pid \(getpid())"
    }

    /// The picture of `event` that every server shows now, and the graph it draws; `read` reads
    /// the event's graph as it is now. `behind`: the picture was made of the graph as it was
    /// before its latest pairs or people (the next is due or being made).
    func picture(of event: UUID, read: @escaping @Sendable () async throws -> EventGraph) async throws -> (
        EventGraph, Picture, behind: Bool
    ) {
        // Read before the graph: a lease taken next after it means nothing changed in between.
        let before = try await store.header(of: event)
        let graph = try await read()
        let fingerprint = Self.fingerprint(of: graph)
        let waitUntil = ContinuousClock.now + Self.firstPictureWait
        var header = before
        while true {
            // A grown picture of the graph as it is, once nothing has changed for `settleAfter`.
            var unsettled = false
            if let header, let generation = header.pictureGeneration,
                header.fingerprint == fingerprint || header.leased || header.age.map({ $0 < interval }) == true,
                let stored = try await stored(of: event, generation: generation)
            {
                unsettled =
                    header.fingerprint == fingerprint && stored.fingerprint == fingerprint && stored.picture.history.grownInARow > 0
                    && header.age.map { $0 >= settleAfter } == true
                if !unsettled || header.leased {
                    compute.metrics.cacheLookup("stored_pictures", hit: true)
                    // While it is settled (by another server), the screen asks again.
                    return Self.drawing(graph, fingerprint: fingerprint, by: stored, settling: unsettled)
                }
            }
            if let lease = try await store.takeLease(of: event, maker: maker, for: lease) {
                compute.metrics.cacheLookup("stored_pictures", hit: false)
                // No leave, erasure or picture since the header was read (each adds a generation to
                // the row, once there is one): the graph read after it stands.
                let unchanged = before.map { lease == $0.leaseGeneration + 1 } ?? false
                // The picture there is answers while the next is made behind it (made to the end,
                // and stored, however long it takes): a screen does not wait for a layout, and the
                // layout takes no request's turn on the graph thread.
                let shown = unchanged && interval > .zero ? header?.pictureGeneration : nil
                let making = Task {
                    try await make(
                        event, lease: lease, graph: unchanged ? graph : nil, last: unchanged ? before?.pictureGeneration : nil,
                        behind: shown != nil, settle: unsettled, read: read)
                }
                if let generation = shown, let stored = try await stored(of: event, generation: generation) {
                    if freshPictureWait > .zero, let made = try await Self.value(of: making, within: freshPictureWait) { return made }
                    return Self.drawing(graph, fingerprint: fingerprint, by: stored, settling: unsettled)
                }
                return try await making.value
            }
            if unsettled, let header, let generation = header.pictureGeneration,
                let stored = try await stored(of: event, generation: generation)
            {
                // Another server took the lease since: it settles the picture, or makes the next.
                return Self.drawing(graph, fingerprint: fingerprint, by: stored, settling: true)
            }
            // Another server makes the event's first picture, or saved one since the header was read.
            guard ContinuousClock.now < waitUntil else { break }
            try await Task.sleep(for: .milliseconds(100))
            header = try await store.header(of: event)
        }
        logger.warning("no stored picture came in time: laid out here, not stored", metadata: ["event.id": "\(event)"])
        let previous = kept[event]?.picture
        let picture = try await compute.run("layout") { SubgraphLayouts.layOut(graph.engineGraph, previous: previous) }
        made += 1
        keep(event, generation: nil, fingerprint: fingerprint, picture: picture)
        return (graph, picture, false)
    }

    /// The value of `task` if it ends within `limit`, else nil (the task goes on, unwaited for).
    private static func value<Value: Sendable>(of task: Task<Value, any Error>, within limit: Duration) async throws -> Value? {
        let answer = FirstAnswer<Value?>()
        return try await withCheckedThrowingContinuation { continuation in
            answer.wait(continuation)
            Task { answer.give(await task.result.map(Optional.some)) }
            Task {
                try? await Task.sleep(for: limit)
                answer.give(.success(nil))
            }
        }
    }

    /// Sets `freshPictureWait` (for tests: zero answers with the picture there is at once).
    package func setFreshPictureWait(_ wait: Duration) {
        freshPictureWait = wait
    }

    /// Sets `settleAfter` (for tests).
    package func setSettleAfter(_ quiet: Duration) {
        settleAfter = quiet
    }

    /// Forgets the pictures that placed `profile` (its profile was erased).
    func forget(profile: UUID) {
        kept = kept.filter { !$0.value.picture.ids.contains(profile) }
    }

    /// Forgets `event`'s picture (it was purged, or a member left).
    func forget(event: UUID) {
        kept[event] = nil
    }

    /// Makes the next picture under the lease `generation`, saves it, and gives the lease back: of
    /// `graph` and grown from the stored picture `last` when nothing changed since they were read,
    /// else of the graph read again, grown from the latest picture. Laid out `behind` the requests
    /// (`GraphComputation.behind`) when an answer does not wait for it. The picture it returns is
    /// of the graph it returns, so never behind it.
    private func make(
        _ event: UUID, lease generation: Int64, graph known: EventGraph?, last: Int64?, behind: Bool, settle: Bool,
        read: () async throws -> EventGraph
    ) async throws -> (EventGraph, Picture, behind: Bool) {
        // The lease was taken just before: past this, another server may take it and make the picture.
        let leaseEnds = ContinuousClock.now + lease
        do {
            let graph: EventGraph
            if let known { graph = known } else { graph = try await read() }
            let fingerprint = Self.fingerprint(of: graph)
            let previous: Kept?
            if known == nil {
                previous = try await latest(of: event)
            } else if let last {
                previous = try await stored(of: event, generation: last) ?? kept[event]
            } else {
                previous = kept[event]
            }
            let settling = settle && previous.map { $0.fingerprint == fingerprint && $0.picture.history.grownInARow > 0 } == true
            if let previous, previous.fingerprint == fingerprint, previous.generation != nil, !settling {
                try await store.release(event, generation: generation)
                return (graph, previous.picture, false)
            }
            let layOut: @Sendable () -> Picture? = { [start = previous?.picture] in
                // Its turn came after its lease ended (behind a long queue of background work):
                // another server, or the next request, makes it; laid out twice, each would lengthen the queue.
                if start != nil, ContinuousClock.now >= leaseEnds { return nil }
                if settling, let start { return start.settled(graph.engineGraph) }
                return SubgraphLayouts.layOut(graph.engineGraph, previous: start)
            }
            guard let picture = try await behind ? compute.behind("layout-behind", layOut) : compute.run("layout", layOut) else {
                logger.info("a picture's lease ended before its turn: not laid out", metadata: ["event.id": "\(event)"])
                try? await store.release(event, generation: generation)
                return Self.drawing(graph, fingerprint: fingerprint, by: previous!)  // nil only with a previous picture
            }
            made += 1
            let saved: Bool
            do {
                saved = try await store.save(Self.stored(picture, generation: generation, fingerprint: fingerprint), of: event)
                if !saved { logger.info("a picture was not saved: its lease ended first", metadata: ["event.id": "\(event)"]) }
            } catch {
                // The picture is still this answer's (it is derived from the graph just read): the
                // screens see it, and the next maker tries to store one again.
                logger.error("a picture could not be saved", metadata: ["event.id": "\(event)", "error": "\(error)"])
                try? await store.release(event, generation: generation)
                saved = false
            }
            keep(event, generation: saved ? generation : nil, fingerprint: fingerprint, picture: picture)
            return (graph, picture, false)
        } catch {
            try? await store.release(event, generation: generation)
            throw error
        }
    }

    /// The stored picture of generation `generation`: the one kept here, or read and kept.
    private func stored(of event: UUID, generation: Int64) async throws -> Kept? {
        if let mine = kept[event], mine.generation == generation { return use(event) }
        guard let row = try await store.picture(of: event) else { return nil }
        guard let picture = Self.picture(from: row) else {
            logger.warning("a stored picture does not hold together: ignored", metadata: ["event.id": "\(event)"])
            return nil
        }
        keep(event, generation: row.generation, fingerprint: row.fingerprint, picture: picture)
        return kept[event]
    }

    /// The latest picture to grow the next from: the stored one if it is newer than the one kept here.
    private func latest(of event: UUID) async throws -> Kept? {
        guard let header = try await store.header(of: event), let generation = header.pictureGeneration else { return kept[event] }
        if let mine = kept[event], let made = mine.generation, made >= generation { return mine }
        return try await stored(of: event, generation: generation) ?? kept[event]
    }

    private func use(_ event: UUID) -> Kept? {
        clock += 1
        kept[event]?.lastUse = clock
        return kept[event]
    }

    private func keep(_ event: UUID, generation: Int64?, fingerprint: Int64, picture: Picture) {
        clock += 1
        kept[event] = Kept(generation: generation, fingerprint: fingerprint, picture: picture, lastUse: clock)
        if kept.count > capacity, let oldest = kept.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            kept[oldest] = nil
        }
    }

    /// `graph` (whose fingerprint is `fingerprint`) as `kept` draws it: the people it placed, with
    /// the pairs among them, and whether it was made of another graph than this one.
    /// `settling`: a settled picture of it is being made (the screen asks again, as for one behind).
    private static func drawing(_ graph: EventGraph, fingerprint: Int64, by kept: Kept, settling: Bool = false) -> (
        EventGraph, Picture, behind: Bool
    ) {
        let picture = kept.picture
        let behind = kept.fingerprint != fingerprint || settling
        guard picture.ids != graph.people.map(\.id) else { return (graph, picture, behind) }
        let shown = graph.restricted(to: Set(picture.ids))
        return (shown, picture.aligned(to: shown.people.map(\.id)), behind)
    }

    /// A fingerprint of who `graph` holds and which pairs, the same on every server (FNV-1a over
    /// the people's ids and the pairs' ends, in order).
    static func fingerprint(of graph: EventGraph) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        for person in graph.people {
            withUnsafeBytes(of: person.id.uuid) { for byte in $0 { mix(byte) } }
        }
        for end in graph.ends {
            withUnsafeBytes(of: end.a.littleEndian) { for byte in $0 { mix(byte) } }
            withUnsafeBytes(of: end.b.littleEndian) { for byte in $0 { mix(byte) } }
        }
        return Int64(bitPattern: hash)
    }

    /// `picture` as the store keeps it: per person x and y (float64), community and component size
    /// (int32), little-endian.
    static func stored(_ picture: Picture, generation: Int64, fingerprint: Int64) -> EventPictureRepository.Picture {
        var places: [UInt8] = []
        places.reserveCapacity(picture.ids.count * EventPictureRepository.bytesPerPlace)
        for index in picture.ids.indices {
            let place = picture.place(at: index, of: picture.ids[index])!
            withUnsafeBytes(of: place.point.x.bitPattern.littleEndian) { places += $0 }
            withUnsafeBytes(of: place.point.y.bitPattern.littleEndian) { places += $0 }
            withUnsafeBytes(of: Int32(place.community).littleEndian) { places += $0 }
            withUnsafeBytes(of: Int32(place.componentSize).littleEndian) { places += $0 }
        }
        return EventPictureRepository.Picture(
            generation: generation, fingerprint: fingerprint, people: picture.ids, places: places,
            grownInARow: picture.history.grownInARow, pairsWhenDrawnAfresh: picture.history.pairsWhenDrawnAfresh,
            warmStarted: picture.warmStarted)
    }

    /// The picture a stored row holds, if it holds together (a restored archive may hold anything):
    /// one place per person, each person once, coordinates within `farthestPlace`, communities and
    /// component sizes within the people's count.
    static func picture(from row: EventPictureRepository.Picture) -> Picture? {
        let count = row.people.count
        guard row.places.count == count * EventPictureRepository.bytesPerPlace, Set(row.people).count == count else { return nil }
        var points: [Point] = []
        var communities: [Int32] = []
        var componentSizes: [Int32] = []
        points.reserveCapacity(count)
        communities.reserveCapacity(count)
        componentSizes.reserveCapacity(count)
        return row.places.withUnsafeBytes { bytes -> Picture? in
            for index in 0..<count {
                let offset = index * EventPictureRepository.bytesPerPlace
                let x = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                let y = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
                let community = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: Int32.self))
                let componentSize = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self))
                guard abs(x) <= Self.farthestPlace, abs(y) <= Self.farthestPlace, (0..<Int32(clamping: count)).contains(community),
                    (1...Int32(clamping: count)).contains(componentSize)
                else { return nil }
                points.append(Point(x: x, y: y))
                communities.append(community)
                componentSizes.append(componentSize)
            }
            return Picture(
                ids: row.people, points: points, communities: communities, componentSizes: componentSizes,
                warmStarted: row.warmStarted,
                history: PictureHistory(
                    grownInARow: min(max(row.grownInARow, 0), PictureHistory.mostInARow),
                    pairsWhenDrawnAfresh: max(row.pairsWhenDrawnAfresh, 0)))
        }
    }
}

extension EventGraph {
    /// Its people and pairs as the graph engine takes them.
    var engineGraph: Graph<UUID> { Graph(ids: people.map(\.id), sources: ends.map(\.a), targets: ends.map(\.b)) }
}

/// A continuation resumed by the first of several answers; the others are dropped.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let waiting = Mutex<CheckedContinuation<Value, any Error>?>(nil)

    func wait(_ continuation: CheckedContinuation<Value, any Error>) {
        waiting.withLock { $0 = continuation }
    }

    func give(_ result: Result<Value, any Error>) {
        waiting.withLock { $0.take() }?.resume(with: result)
    }
}
