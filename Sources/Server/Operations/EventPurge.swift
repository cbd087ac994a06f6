import ConstellationModel
import Foundation
import Logging
import Store
import Synchronization

/// Purges events on their dates, by itself: in the background work (one server at a time where
/// several share the database), one step a round, each step its own transaction, so a purge
/// killed midway goes on where it stopped, and catching up after downtime. The steps, in order:
/// 1. mark the event purged: every route and read refuses it from then on (410 `event_purged`);
/// 2. keep its record (figures and growth, no one in them), computed from the data the mark froze;
/// 3. remove its pairs, then its attendees, `batch` rows a round, never holding more for long;
/// 4. remove its invitations, view links and join code, and say it is finished.
/// What goes and what stays is `docs/data-model.md`'s table ("When an event is purged").
package struct EventPurge: Sendable {
    let metrics: ServerMetrics
    let logger: Logger
    /// How long a purge whose step failed waits before it is tried again: meanwhile the purges
    /// due after it go on, rather than wait behind it round after round.
    let retryAfter: Duration
    /// The purges whose last step failed here, and when.
    private let failed = Failures()

    package init(metrics: ServerMetrics, logger: Logger, retryAfter: Duration = .seconds(3600)) {
        self.metrics = metrics
        self.logger = logger
        self.retryAfter = retryAfter
    }

    /// The background chore, every `interval`.
    package func chore(every interval: Duration) -> BackgroundWork.Chore {
        BackgroundWork.Chore(name: "purging events", interval: interval, lock: 0x436F_6E73_0000_0002, batch: 5_000) {
            connection, batch in try step(batch: batch, on: connection)
        }
    }

    /// One step of the next purge, in the caller's transaction: `batch` when there may be more to
    /// do at once, 0 when no event is due.
    package func step(batch: Int, on connection: PostgresConnection) throws -> Int {
        let now = ContinuousClock.now
        let resting = failed.times.withLock { failed in
            failed = failed.filter { now - $0.value < retryAfter }
            return Array(failed.keys)
        }
        guard let purge = try EventRepository.nextPurge(on: connection, skipping: resting) else { return 0 }
        let metadata: Logger.Metadata = ["event.id": "\(purge.event)", "event.slug": "\(purge.slug)"]
        do {
            return try step(purge, batch: batch, metadata: metadata, on: connection)
        } catch {
            failed.times.withLock { $0[purge.event] = now }
            logger.error(
                "event purge: a step failed; the purges due after it go on, and it is tried again later",
                metadata: metadata.merging(["error": "\(error)", "retry.after": "\(retryAfter)"], uniquingKeysWith: { $1 }))
            throw error
        }
    }

    /// One step of `purge`.
    private func step(_ purge: PurgeInProgress, batch: Int, metadata: Logger.Metadata, on connection: PostgresConnection) throws -> Int {
        if !purge.marked {
            if try EventRepository.markPurged(purge.event, on: connection) {
                logger.notice("event purge: began; the event is refused from now on", metadata: metadata)
            }
        } else if !purge.recorded {
            let record = try Self.record(of: purge.event, on: connection)
            try EventRepository.keep(record, of: purge.event, on: connection)
            logger.notice(
                "event purge: kept its record",
                metadata: metadata.merging(
                    [
                        "record.people": "\(record.figures.people)", "record.connections": "\(record.figures.connections)",
                        "record.attendees": "\(record.figures.attendees)",
                    ], uniquingKeysWith: { $1 }))
        } else if try EventRepository.removeSome(of: purge.event, limit: batch, on: connection) == 0 {
            metrics.eventPurged()
            logger.notice(
                "event purge: finished; its attendees, their choices, its pairs, invitations, view links and join code are gone",
                metadata: metadata)
        }
        return batch
    }

    /// The event's record, from its pairs and members as they are in this transaction.
    static func record(of event: UUID, on connection: PostgresConnection) throws -> KeptRecord {
        let (pairs, members) = try EventRepository.graph(of: event, on: connection)
        return record(pairs: pairs, members: members)
    }

    /// The record of an event of `pairs` (in order of first connection) and `members`, computed now.
    static func record(pairs: [EventPair], members: [EventMemberView]) -> KeptRecord {
        let figures = EventSummaryBuilder.figures(pairs: pairs, members: members)
        let steps = GrowthSeries(pairs).recorded
        return KeptRecord(computedAt: Date(), figures: figures, steps: steps)
    }

    /// Runs every due purge to its end, now (`restore --purge-overdue`): how many events it finished.
    package func purgeOverdue(_ database: Database) async throws -> Int {
        var finished = 0
        while try await database.withTransaction({ connection in
            guard let purge = try EventRepository.nextPurge(on: connection) else { return false }
            while try step(batch: 5_000, on: connection) > 0,
                try EventRepository.nextPurge(on: connection)?.event == purge.event
            {}
            return true
        }) {
            finished += 1
        }
        return finished
    }
}

/// When the purges whose step failed failed (a struct cannot hold a `Mutex`, which is not copyable).
private final class Failures: Sendable {
    let times = Mutex<[UUID: ContinuousClock.Instant]>([:])
}
