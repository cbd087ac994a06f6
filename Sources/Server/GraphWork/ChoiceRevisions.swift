import Foundation
import Synchronization

/// When each event's members last changed how it shows them, as a revision: a shared picture
/// made before its event's last change is relabelled (its people read again) rather than made
/// again, since who is drawn did not change.
final class ChoiceRevisions: Sendable {
    /// Events remembered at most; past it, all are forgotten, and every event counts as changed once.
    static let capacity = 100_000

    private struct State {
        var revisions: [UUID: Int] = [:]
        /// Per event, its choices revision in the database as last read (`moved`).
        var stored: [UUID: Int64] = [:]
        var last = 0
        /// The revision of an event not remembered: every picture made before it is taken as stale.
        var floor = 0
    }

    private let state = Mutex(State())

    /// `event`'s revision now.
    func revision(of event: UUID) -> Int {
        state.withLock { $0.revisions[event] ?? $0.floor }
    }

    /// Notes `event`'s choices revision in the database as just read: whether it moved since it was
    /// last read here (or was not read here before: what was made before cannot be vouched for).
    func moved(_ event: UUID, to stored: Int64) -> Bool {
        state.withLock { state in
            if state.stored.count >= Self.capacity { state.stored.removeAll() }
            return state.stored.updateValue(stored, forKey: event) != stored
        }
    }

    /// Notes that a member of `event` changed how it shows them.
    func changed(_ event: UUID) {
        state.withLock { state in
            state.last += 1
            if state.revisions.count >= Self.capacity {
                state.revisions.removeAll()
                state.floor = state.last
            }
            state.revisions[event] = state.last
        }
    }
}
