import Foundation
import Store
import Synchronization

/// The read replica's lag (`Database.replicationLag`), measured at most once a second however
/// many requests ask: each read-path response states it, and none pays a query for it (while one
/// request measures, the others state the previous figure).
final class ReplicaLag: Sendable {
    private let replica: Database
    private let measured = Mutex<(at: ContinuousClock.Instant, seconds: Double?)?>(nil)

    init(_ replica: Database) {
        self.replica = replica
    }

    /// Seconds behind the primary, as of the last second; nil if the replica could not say.
    func seconds() async -> Double? {
        let now = ContinuousClock.now
        let fresh: Double?? = measured.withLock { last in
            if let last, now - last.at < .seconds(1) { return .some(last.seconds) }
            last = (now, last?.seconds)  // this request measures; the others meanwhile take the last figure
            return .none
        }
        if let fresh { return fresh }
        let seconds = try? await replica.replicationLag()
        measured.withLock { $0 = (now, seconds) }
        return seconds
    }
}
