import ConstellationModel
import Logging
import Synchronization

/// The live streams one server holds at once, of both kinds and all credentials together, at most
/// `limit` (from its open-file limit, `OpenFiles.streamCapacity`): past it a new stream is refused
/// with 503 `streams_full` before the descriptors run out, so that short requests still get
/// through; the first refusal is logged, and again after the streams have fallen below the limit.
package final class StreamSlots: Sendable {
    let limit: Int
    private let state = Mutex((held: 0, saidFull: false))
    private let logger: Logger

    package init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Takes a slot, or throws 503 `streams_full`.
    func take() throws {
        let (taken, tellFull) = state.withLock { state -> (Bool, Bool) in
            guard state.held < limit else {
                defer { state.saidFull = true }
                return (false, !state.saidFull)
            }
            state.held += 1
            return (true, false)
        }
        if tellFull {
            logger.warning(
                "live streams full: new ones are refused until some close",
                metadata: ["streams.limit": "\(limit)", "hint": "raise the open-file limit (LimitNOFILE) or add a server"])
        }
        guard taken else { throw Problem.streamsFull }
    }

    /// A stream has ended.
    func giveBack() {
        state.withLock { state in
            state.held -= 1
            if state.held < limit * 9 / 10 { state.saidFull = false }
        }
    }

    /// How many streams are open.
    package var held: Int { state.withLock { $0.held } }
}

extension Problem {
    static let streamsFull = Problem(
        .streamsFull,
        detail: "Try again in a little while: the page does so by itself.", retryAfter: 10)
}
