import ConstellationModel
import Foundation
import Graph
import GraphExport
import Logging
import NIOCore
import Store

/// The server's graph work and what it keeps of it, built once per server: the one graph thread,
/// the turns every graph request waits for (`GraphScheduler`), the pictures and statistics of
/// networks and events, each event's growth and graph, and the event pictures, summaries,
/// records and reports that everyone watching an event shares for an interval.
package struct GraphWork: Sendable {
    let compute: GraphComputation
    let layouts: SubgraphLayouts
    let statistics: VersionedCache<SubgraphLayouts.Subject, GraphStatistics>
    let growth: GrowthCache
    let eventGraphs: EventGraphCache
    /// An event's graph and picture, shared for `pictureInterval`.
    package let eventPictures: SharedResults<UUID, EventPicture>
    /// Each event's latest picture, as every server of the deployment shares it.
    package let storedPictures: StoredEventPictures
    /// An event's network as one reader sees it, rendered in one format, shared for `pictureInterval`;
    /// the last one answers while the next is made.
    package let renderings: SharedResults<RenderingKey, Rendering>
    /// An event's summary (with names or without), shared for `pictureInterval`; the last one answers
    /// while the next is made.
    package let summaries: SharedResults<SummaryKey, EventSummary>
    /// An event's summary before anyone is named in it (the costly part), shared for
    /// `pictureInterval` by every view and kept through members' changes of choice.
    let summaryCores: SharedResults<UUID, EventSummaryBuilder.Core>
    /// How many summary cores were made (for tests).
    package var summaryCoreRuns: Int { get async { await summaryCores.runs } }
    /// An event's record (its figures and growth as they would be kept now), shared for `pictureInterval`.
    package let records: SharedResults<UUID, KeptRecord>
    /// An event's report in one language, shared for `pictureInterval`.
    package let reports: SharedResults<ReportKey, ByteBuffer>
    package let scheduler: GraphScheduler
    private let sizes = EventSizes()
    /// When each event's members last changed their choices: its shared picture is relabelled after.
    let choices = ChoiceRevisions()

    init(
        configuration: ServerConfiguration, eventReads: EventRepository, pictures: EventPictureRepository, metrics: ServerMetrics,
        logger: Logger
    ) {
        scheduler = GraphScheduler(
            limits: GraphScheduler.Limits(
                admitted: configuration.graphRequests, memory: configuration.graphMemoryMB << 20,
                perCredential: configuration.graphRequestsPerCredential),
            metrics: metrics)
        compute = GraphComputation(metrics: metrics, scheduler: scheduler)
        let entries = configuration.graphCacheEntries
        layouts = SubgraphLayouts(capacity: entries, compute: compute)
        growth = GrowthCache(events: eventReads, compute: compute)
        statistics = VersionedCache(capacity: entries) { metrics.cacheLookup("statistics", hit: $0) }
        eventGraphs = EventGraphCache(events: eventReads)
        eventPictures = SharedResults(interval: configuration.pictureInterval)
        storedPictures = StoredEventPictures(store: pictures, compute: compute, interval: configuration.pictureInterval, logger: logger)
        // What the screens fetch: while the next is computed, they get the last one at once.
        summaries = SharedResults(interval: configuration.pictureInterval, lastAnswersFor: Self.lastAnswersFor)
        renderings = SharedResults(interval: configuration.pictureInterval, lastAnswersFor: Self.lastAnswersFor)
        records = SharedResults(interval: configuration.pictureInterval)
        summaryCores = SharedResults(interval: configuration.pictureInterval)
        reports = SharedResults(interval: configuration.pictureInterval)
    }

    /// How long after it was made a screen's picture or summary answers while the next is made: a
    /// page asks for the summary every 10 s, and at a 10,000-person event it takes about a second to
    /// make; within twice its time of sharing (about 8 s) most summaries waited for it (p50 0.49 s).
    static let lastAnswersFor = Duration.seconds(30)

    /// Runs `body` (its reads and computations) as `kind` work on `event`'s lane in its turn
    /// (`GraphScheduler`), for `credential` (an organizer, or a view link with its `allowance`);
    /// its inputs estimated from the event's size as last read, and charged once for all the jobs
    /// that ask for the same `sharedResult` at once.
    func run<T: Sendable>(
        _ kind: String, event: UUID, credential: UUID, allowance: Int? = nil, sharedResult: String? = nil,
        clientGone: @escaping @Sendable () -> Bool, _ body: () async throws -> T
    ) async throws -> T {
        let bytes = sizes.estimate(of: event)
        let job = GraphScheduler.Job(
            kind: kind, lane: .event(event), credential: credential, allowance: allowance, bytes: bytes, sharedResult: sharedResult,
            clientGone: clientGone)
        return try await scheduler.run(job, body)
    }

    /// Runs `body` as `kind` work on `person`'s own network, in its turn.
    func run<T: Sendable>(
        _ kind: String, person: UUID, clientGone: @escaping @Sendable () -> Bool, _ body: () async throws -> T
    ) async throws -> T {
        let job = GraphScheduler.Job(
            kind: kind, lane: .person(person), credential: person, bytes: EventSizes.networkBytes, clientGone: clientGone)
        return try await scheduler.run(job, body)
    }

    /// Notes the size of `event` as just read: its next jobs are estimated by it.
    func noteSize(of event: UUID, members: Int, pairs: Int) {
        sizes.note(event, members: members, pairs: pairs)
    }

    /// Forgets everything kept of `event`: its graph, picture, growth and what is shared of it (it was purged).
    func forget(event: UUID) async {
        await storedPictures.forget(event: event)
        await memberLeft(event)
    }

    /// A member left `event`: its graph, growth and what is shared of it are read and made again;
    /// its last picture stays here, to grow the next one from (without them).
    func memberLeft(_ event: UUID) async {
        await eventGraphs.forget(event: event)
        await growth.forget(event: event)
        await records.forget { $0 == event }
        await summaryCores.forget { $0 == event }
        await forgetShared(event)
    }

    /// `event`'s name or dates changed: what shows them (reports, records, summaries) is made again.
    func eventChanged(_ event: UUID) async {
        await records.forget { $0 == event }
        await forgetShared(event)
    }

    /// A member of `event` changed how it shows them: what names people is made again (renderings,
    /// the summary's labels, reports) and the shared picture is relabelled; what does not name
    /// anyone (the layout, the summary's core, the record) is kept. A change that `hides` someone
    /// (no longer named, or no longer on the walls) is seen by the next request; one that only
    /// names someone may be seen up to an interval and a computation later (what was under way is
    /// finished and shared first, and screens get the last picture and summary while the next is
    /// made), since those show less than is allowed.
    func choicesChanged(_ event: UUID, hides: Bool) async {
        choices.changed(event)
        if hides {
            await renderings.forget { $0.event == event }
            await summaries.forget { $0.event == event }
        } else {
            await renderings.expire { $0.event == event }
            await summaries.expire { $0.event == event }
        }
        await reports.forget { $0.event == event }
    }

    /// Notes `event`'s choices revision as just read with it (`EventRepository.eventAndChoices`): when
    /// it moved since this server last read it, a member hid or left, perhaps through another
    /// server, and what names people is made again here too, as `choicesChanged` makes it for a
    /// change this server took.
    func follow(choicesRevision: Int64, of event: UUID) async {
        guard choices.moved(event, to: choicesRevision) else { return }
        await choicesChanged(event, hides: true)
    }

    /// Forgets what is shared of `event`, or of every event (nil: a profile was erased).
    func forgetShared(_ event: UUID?) async {
        await eventPictures.forget { event == nil || $0 == event }
        await renderings.forget { event == nil || $0.event == event }
        await summaries.forget { event == nil || $0.event == event }
        await reports.forget { event == nil || $0.event == event }
        // A record and a summary's core name nobody: a choice changes nothing in them; an erasure may.
        if event == nil {
            await records.forget { _ in true }
            await summaryCores.forget { _ in true }
        }
    }
}

/// An event's graph as read, and its picture.
package struct EventPicture: Sendable {
    let graph: EventGraph
    let picture: SubgraphLayouts.Picture
    /// Whether the picture was made of the graph as it was before its latest pairs or people.
    let behind: Bool
    /// The event's `ChoiceRevisions` revision when its people were read.
    let choices: Int
}

/// Which rendering of an event's network: its format, and whom it names and marks as "me".
package struct RenderingKey: Hashable, Sendable {
    let event: UUID
    let format: LayoutDocument.Format
    let showsNames: Bool
    let viewer: UUID?
}

/// A rendered document and its media type.
package struct Rendering: Sendable {
    let bytes: [UInt8]
    let type: String
}

/// Which report of an event: its language's code.
package struct ReportKey: Hashable, Sendable {
    let event: UUID
    let language: String
}

/// Which summary of an event: with the names of those who chose to be named, or without.
package struct SummaryKey: Hashable, Sendable {
    let event: UUID
    let showsNames: Bool
}
