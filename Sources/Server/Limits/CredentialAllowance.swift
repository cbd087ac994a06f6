import Foundation
import Synchronization

/// How many of something (live streams, graph requests) each credential holds at once, at most
/// `limit`: what is taken is given back when it ends.
final class CredentialAllowance: Sendable {
    let limit: Int
    private let held = Mutex<[UUID: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more for `credential`, unless it holds its limit already (`limit`, or the one
    /// given for it: a view link's screens): then false, nothing counted.
    func take(_ credential: UUID, limit: Int? = nil) -> Bool {
        held.withLock { held in
            guard held[credential, default: 0] < (limit ?? self.limit) else { return false }
            held[credential, default: 0] += 1
            return true
        }
    }

    /// One of `credential`'s has ended.
    func giveBack(_ credential: UUID) {
        held.withLock { held in
            held[credential, default: 1] -= 1
            if held[credential] == 0 { held[credential] = nil }
        }
    }
}
