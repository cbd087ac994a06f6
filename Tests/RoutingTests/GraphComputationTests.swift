import Dispatch
import Foundation
import Graph
import Server
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Work nobody waits for (an event's next picture, made behind the answer) runs on a thread of its
/// own, on one core at a lower priority, and holds up no request's computation.
struct GraphComputationTests {
    @Test func workBehindTheAnswersHoldsUpNoTurnAndRunsAloneAtALowerPriority() async throws {
        let computation = GraphComputation(metrics: ServerMetrics(), scheduler: GraphScheduler(limits: .init()))
        let gate = DispatchSemaphore(value: 0)
        let behind = Task {
            try await computation.behind("test") { () -> (niceness: Int32, threads: Int) in
                gate.wait()
                return (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), GraphThreads.count)
            }
        }
        // The background thread is held at the gate: a computation in a request's turn still runs.
        let inTurn = try await computation.run("test") { (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), 6 * 7) }
        #expect(inTurn.1 == 42)
        #expect(inTurn.0 == 0, "the graph thread keeps the process's priority")
        gate.signal()
        let ran = try await behind.value
        #expect(ran.niceness == GraphComputation.backgroundNiceness)
        #expect(ran.threads == 1, "one core: the graph engine's loops are not split")
    }
}
