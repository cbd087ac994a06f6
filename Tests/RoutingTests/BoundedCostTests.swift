import ConstellationModel
import Foundation
import Server
import Synchronization
import Testing

/// Graph work cannot be used to burn the machine: one computation per version however many ask,
/// and a cap on each credential's graph requests in flight.
@Suite struct BoundedCostTests {
    struct Subject: Hashable, Sendable { let id: Int }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test func oneComputationPerVersionHoweverManyAskAtOnce() async throws {
        let cache = VersionedCache<Subject, String>(capacity: 10)
        let runs = Counter()
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await cache.value(for: Subject(id: 1), version: 7) { previous in
                        runs.add()
                        try await Task.sleep(for: .milliseconds(200))
                        return "v7 after \(previous ?? "nothing")"
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.value == 1 && Set(answers) == ["v7 after nothing"])
        #expect(await cache.computed == 1)
        // Remembered: no work for the same version; a new version starts from the last value.
        #expect(try await cache.value(for: Subject(id: 1), version: 7) { _ in "recomputed" } == "v7 after nothing")
        #expect(try await cache.value(for: Subject(id: 1), version: 8) { "v8 after \($0 ?? "nothing")" } == "v8 after v7 after nothing")
        #expect(await cache.computed == 2)
        // A failed computation is not remembered.
        await #expect(throws: CancellationError.self) {
            _ = try await cache.value(for: Subject(id: 2), version: 1) { _ in throw CancellationError() }
        }
        #expect(try await cache.value(for: Subject(id: 2), version: 1) { _ in "second try" } == "second try")
    }

    @Test func aCredentialHasAtMostItsShareOfGraphRequestsInFlight() async throws {
        let scheduler = GraphScheduler(limits: .init(perCredential: 2))
        let job: @Sendable (UUID) -> GraphScheduler.Job = { GraphScheduler.Job(kind: "test", lane: .person($0), credential: $0) }
        let ada = UUID()
        let bob = UUID()
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let (started, starter) = AsyncStream<Void>.makeStream()
        let held = (0..<2).map { _ in
            Task {
                try await scheduler.run(job(ada)) {
                    starter.yield()
                    for await _ in release { break }
                }
            }
        }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        await iterator.next()
        do {
            try await scheduler.run(job(ada)) {}
            Issue.record("a third request in flight was admitted")
        } catch let problem as Problem {
            #expect(problem.status == 429 && problem.code == "too_many_graph_requests" && problem.retryAfter == 1)
        }
        try await scheduler.run(job(bob)) {}  // someone else is not held back
        releaser.yield()
        releaser.yield()
        releaser.finish()
        for task in held { try await task.value }
        try await scheduler.run(job(ada)) {}  // done ones make room again
    }
}
