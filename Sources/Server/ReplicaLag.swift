import Foundation
import Store
import Synchronization

/// The read replica's lag (`Database.replicationLag`), measured at most once a second however
/// many requests ask: each read-path response states it, and none pays a query for it.
final class ReplicaLag: Sendable {
    private let replica: Database
    private let measured = Mutex<(at: ContinuousClock.Instant, seconds: Double?)?>(nil)

    init(_ replica: Database) {
        self.replica = replica
    }

    /// Seconds behind the primary, as of the last second; nil if the replica could not say.
    func seconds() async -> Double? {
        let now = ContinuousClock.now
        if let last = measured.withLock({ $0 }), now - last.at < .seconds(1) { return last.seconds }
        let seconds = try? await replica.replicationLag()
        measured.withLock { $0 = (now, seconds) }
        return seconds
    }
}
