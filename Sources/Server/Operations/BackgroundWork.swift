import Foundation
import Logging
import ServiceLifecycle
import Store

/// The work a server does by itself, on a schedule: each chore every `interval` (the first round
/// one interval after the start, the migrations long done), in one transaction under an advisory
/// lock of its own, so that of several servers sharing one database one does it at a time (the
/// others skip that round), as migrations take turns. It runs in the application's service group;
/// at shutdown a round under way finishes and no other starts.
package struct BackgroundWork: Service {
    /// One kind of work: a round does at most `batch` things on a connection, inside the
    /// transaction, and says how many it did; a full round is followed by another at once.
    package struct Chore: Sendable {
        let name: String
        let interval: Duration
        /// Its advisory lock's key, its own (not the migrations').
        let lock: Int64
        let batch: Int
        let round: @Sendable (PostgresConnection, _ batch: Int) throws -> Int

        package init(
            name: String, interval: Duration, lock: Int64, batch: Int,
            round: @escaping @Sendable (PostgresConnection, _ batch: Int) throws -> Int
        ) {
            self.name = name
            self.interval = interval
            self.lock = lock
            self.batch = batch
            self.round = round
        }
    }

    let database: Database
    let chores: [Chore]
    let logger: Logger

    package init(database: Database, chores: [Chore], logger: Logger) {
        self.database = database
        self.chores = chores
        self.logger = logger
    }

    package func run() async {
        await withDiscardingTaskGroup { group in
            for chore in chores {
                group.addTask { await keepDoing(chore) }
            }
        }
    }

    private func keepDoing(_ chore: Chore) async {
        while await pause(chore.interval) {
            do {
                while let done = try await round(of: chore), done >= chore.batch, !Task.isShuttingDownGracefully {}
            } catch {
                logger.warning("\(chore.name): a round failed; the next one tries again", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Waits `interval`: false if the server shuts down first.
    private func pause(_ interval: Duration) async -> Bool {
        await cancelWhenGracefulShutdown { (try? await Task.sleep(for: interval)) != nil }
    }

    /// One round of `chore`: how many things it did, or nil when another server holds its lock.
    package func round(of chore: Chore) async throws -> Int? {
        let done = try await database.withTransaction(ifFree: chore.lock) { try chore.round($0, chore.batch) }
        if let done, done > 0 { logger.info("\(chore.name): \(done) done") }
        return done
    }
}

extension BackgroundWork.Chore {
    /// Forgets the use counts of codes that can no longer be redeemed: expired for longer than
    /// the offline grace and the verifier's clock leeway, with an hour to spare. Every ten
    /// minutes; otherwise `token_uses` keeps a row per code ever scanned.
    package static func forgetSpentCodes(offlineGrace: Duration) -> Self {
        let kept = TimeInterval(offlineGrace.components.seconds) + 3600
        return Self(name: "forgetting spent codes", interval: .seconds(600), lock: 0x436F_6E73_0000_0001, batch: 10_000) {
            connection, batch in
            try ConnectionRepository.forgetSpentCodes(expiredBefore: Date().addingTimeInterval(-kept), limit: batch, on: connection)
        }
    }

    /// Forgets the deployment's rate buckets untouched for two hours (`DeploymentLimits`): full
    /// again by then, since no rule's period is longer than an hour. Every ten minutes.
    package static let forgetIdleRateBuckets = Self(
        name: "forgetting idle rate buckets", interval: .seconds(600), lock: 0x436F_6E73_0000_0003, batch: 10_000
    ) { connection, batch in
        try RateBucketRepository.forgetIdle(before: Date().addingTimeInterval(-7_200), limit: batch, on: connection)
    }
}
