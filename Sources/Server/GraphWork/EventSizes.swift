import Foundation
import Synchronization

/// Each event's size as last read, to estimate the memory the inputs of its next graph job will
/// hold before they are read (`GraphScheduler` admits by it).
final class EventSizes: Sendable {
    /// What a job's inputs hold per member and per pair (the graph read, its layout and its
    /// communities), and for an event not read yet or a personal network.
    static let bytesPerMember = 400
    static let bytesPerPair = 200
    static let unknownEventBytes = 1 << 20
    static let networkBytes = 256 << 10
    /// Events remembered at most; past it, all are forgotten and come back with their next reads.
    static let capacity = 100_000

    private let bytes = Mutex<[UUID: Int]>([:])

    /// The estimate for `event`'s next job.
    func estimate(of event: UUID) -> Int {
        bytes.withLock { $0[event] } ?? Self.unknownEventBytes
    }

    /// Notes `event`'s size as just read.
    func note(_ event: UUID, members: Int, pairs: Int) {
        let estimate = members * Self.bytesPerMember + pairs * Self.bytesPerPair
        bytes.withLock { bytes in
            if bytes.count >= Self.capacity { bytes.removeAll() }
            bytes[event] = estimate
        }
    }
}
