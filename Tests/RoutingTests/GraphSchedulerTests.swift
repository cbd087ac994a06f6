import ConstellationModel
import Foundation
import Server
import Synchronization
import Testing

/// Graph work is admitted within bounds (the requests under way, their memory, each credential's
/// allowance), and a refused request runs nothing; its computations take turns on the graph
/// thread: lanes (events, people's own networks) in turn, credentials in turn within a lane; a
/// computation whose client left is dropped at its turn.
struct GraphSchedulerTests {
    /// What ran, in order, and a gate that holds the first job until a test opens it.
    final class Runs: Sendable {
        private let names = Mutex<[String]>([])
        private let (opened, open) = AsyncStream<Void>.makeStream()

        var order: [String] { names.withLock { $0 } }
        func ran(_ name: String) { names.withLock { $0.append(name) } }
        func release() { open.finish() }
        func waitForRelease() async { for await _ in opened {} }
    }

    let flooded = GraphScheduler.Lane.event(UUID())
    let other = GraphScheduler.Lane.event(UUID())
    let organizer = UUID()

    func job(_ lane: GraphScheduler.Lane, _ credential: UUID, bytes: Int = 0, gone: Bool = false) -> GraphScheduler.Job {
        GraphScheduler.Job(kind: "test", lane: lane, credential: credential, allowance: 100, bytes: bytes, clientGone: { gone })
    }

    /// Starts `job` named `name` on `scheduler`, its computation taking a turn, and waits until it
    /// computes (`holding` it until `runs` is released) or waits for its turn.
    func start(
        _ scheduler: GraphScheduler, _ job: GraphScheduler.Job, _ name: String, _ runs: Runs, holding: Bool = false
    ) async -> Task<Result<Void, Problem>, Never> {
        let waiting = scheduler.load.waiting
        let task = Task {
            do {
                try await scheduler.run(job) {
                    try await scheduler.turn("test") {
                        runs.ran(name)
                        if holding { await runs.waitForRelease() }
                    }
                }
                return Result<Void, Problem>.success(())
            } catch let problem as Problem {
                return .failure(problem)
            } catch {
                return .failure(Problem(.internalError, detail: "\(error)"))
            }
        }
        // Sleeps, not yields: a yielding loop holds a cooperative thread, and CI runs the whole suite on two cores.
        while scheduler.load.waiting == waiting && !runs.order.contains(name) { try? await Task.sleep(for: .milliseconds(2)) }
        return task
    }

    @Test func anotherEventWaitsForNoMoreThanTheComputationRunningAndOneOfEachOtherLane() async throws {
        let scheduler = GraphScheduler(limits: .init())
        let runs = Runs()
        let first = await start(scheduler, job(flooded, organizer), "running", runs, holding: true)
        var flood: [Task<Result<Void, Problem>, Never>] = []
        for n in 0..<5 { flood.append(await start(scheduler, job(flooded, UUID()), "flood \(n)", runs)) }
        let bystander = await start(scheduler, job(other, UUID()), "other event", runs)
        #expect(scheduler.load.waiting == 6 && scheduler.load.admitted == 7)
        runs.release()
        _ = await first.value
        _ = await bystander.value
        for task in flood { _ = await task.value }
        #expect(runs.order.count == 7)
        #expect(runs.order.firstIndex(of: "other event") == 2, "after the running computation and one of the flooded lane: \(runs.order)")
    }

    @Test func withinAnEventCredentialsTakeTurns() async throws {
        let scheduler = GraphScheduler(limits: .init(perCredential: 10))
        let runs = Runs()
        let first = await start(scheduler, job(flooded, organizer), "running", runs, holding: true)
        var tasks: [Task<Result<Void, Problem>, Never>] = []
        for n in 0..<4 { tasks.append(await start(scheduler, job(flooded, organizer), "reports \(n)", runs)) }
        tasks.append(await start(scheduler, job(flooded, UUID()), "a wall's picture", runs))
        runs.release()
        _ = await first.value
        for task in tasks { _ = await task.value }
        #expect(runs.order.firstIndex(of: "a wall's picture") == 2, "\(runs.order)")
    }

    @Test func pastItsBoundsAJobIsRefusedAtOnceAndRunsNothing() async throws {
        let scheduler = GraphScheduler(limits: .init(admitted: 3, memory: 1_000, perCredential: 2))
        let runs = Runs()
        let first = await start(scheduler, job(flooded, organizer, bytes: 100), "running", runs, holding: true)
        let waiting = [
            await start(scheduler, job(other, UUID(), bytes: 100), "waiting 1", runs),
            await start(scheduler, job(other, UUID(), bytes: 100), "waiting 2", runs),
        ]
        // As many under way as admitted: 503 before anything is read.
        let full = await Self.outcome(scheduler, job(other, UUID())) { runs.ran("refused") }
        #expect(full?.status == 503 && full?.code == "graph_work_busy" && full?.retryAfter == 2)
        runs.release()
        _ = await first.value
        for task in waiting { _ = await task.value }
        #expect(!runs.order.contains("refused"))

        // Memory: a job whose inputs would pass the bound is refused: 503.
        let runs2 = Runs()
        let big = await start(scheduler, job(flooded, UUID(), bytes: 900), "big", runs2, holding: true)
        let tooBig = await Self.outcome(scheduler, job(other, UUID(), bytes: 200)) { runs2.ran("refused") }
        #expect(tooBig?.code == "graph_work_busy")
        // A credential's allowance counts every job of its under way: 429.
        let own = UUID()
        let mine = await start(scheduler, GraphScheduler.Job(kind: "test", lane: other, credential: own, allowance: 1), "mine", runs2)
        let second = await Self.outcome(scheduler, GraphScheduler.Job(kind: "test", lane: other, credential: own, allowance: 1)) {
            runs2.ran("refused")
        }
        #expect(second?.status == 429 && second?.code == "too_many_graph_requests")
        runs2.release()
        _ = await big.value
        _ = await mine.value
        #expect(runs2.order == ["big", "mine"])
        let load = scheduler.load
        #expect(load.admitted == 0 && load.waiting == 0 && load.bytes == 0, "everything given back")
    }

    /// Nine co-organizers asking for one report read it once (`SharedResults`): at 20,000 people,
    /// each charged the whole event's inputs took the flood's eighteen requests past the memory
    /// bound, and 1,329 of them were refused 503 while one read served them all.
    @Test func jobsThatShareOneResultAreChargedItsInputsOnce() async throws {
        let scheduler = GraphScheduler(limits: .init(memory: 1_000))
        let runs = Runs()
        func report(_ language: String) -> GraphScheduler.Job {
            GraphScheduler.Job(kind: "report", lane: flooded, credential: UUID(), bytes: 600, sharedResult: "report \(language)")
        }
        let first = await start(scheduler, report("en"), "first", runs, holding: true)
        let same = await start(scheduler, report("en"), "same report", runs)
        #expect(scheduler.load.admitted == 2 && scheduler.load.bytes == 600, "one report's inputs, charged once")
        let another = await Self.outcome(scheduler, report("de")) { runs.ran("another report") }
        #expect(another?.code == "graph_work_busy", "a report of its own is charged its own inputs")
        let elsewhere = await Self.outcome(
            scheduler, GraphScheduler.Job(kind: "report", lane: other, credential: UUID(), bytes: 600, sharedResult: "report en")
        ) { runs.ran("another event's report") }
        #expect(elsewhere?.code == "graph_work_busy", "a result is shared within its lane only")
        runs.release()
        _ = await first.value
        _ = await same.value
        #expect(runs.order == ["first", "same report"])
        #expect(scheduler.load.admitted == 0 && scheduler.load.bytes == 0, "charged back with the last job that shared it")
    }

    @Test func aComputationWhoseClientLeftIsDroppedAtItsTurn() async throws {
        let scheduler = GraphScheduler(limits: .init())
        let runs = Runs()
        let first = await start(scheduler, job(flooded, organizer), "running", runs, holding: true)
        let left = await start(scheduler, job(other, UUID(), gone: true), "left", runs)
        let stayed = await start(scheduler, job(other, UUID()), "stayed", runs)
        runs.release()
        _ = await first.value
        _ = await stayed.value
        #expect(runs.order == ["running", "stayed"])
        guard case .failure(let problem) = await left.value else {
            Issue.record("the computation of a client that left ran")
            return
        }
        #expect(problem.code == "client_gone")
    }

    /// The problem `job` was refused with at once, nil if it ran.
    static func outcome(_ scheduler: GraphScheduler, _ job: GraphScheduler.Job, _ body: @Sendable () -> Void) async -> Problem? {
        do {
            try await scheduler.run(job) { body() }
            return nil
        } catch {
            return error as? Problem
        }
    }
}
