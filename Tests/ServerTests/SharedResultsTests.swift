import Server
import Testing

/// `SharedResults` shares a costly result longer than its interval: four times what it took, so one
/// event's picture takes at most a quarter of a core however large the event grows.
@Suite struct SharedResultsTests {
    /// A computation of a second under an interval of 10 ms is shared for four seconds from its
    /// start: asked again as soon as it is done (a second of margin would still be within it on a
    /// loaded machine, three are), the same result comes back and nothing runs again.
    @Test func aCostlyResultIsSharedFourTimesAsLongAsItTook() async throws {
        let shared = SharedResults<String, Int>(interval: .milliseconds(10))
        let first = try await shared.value(for: "event") {
            try await Task.sleep(for: .seconds(1))
            return 1
        }
        let second = try await shared.value(for: "event") { 2 }
        #expect((first, second) == (1, 1))
        #expect(await shared.runs == 1)
    }

    /// A cheap result lives its interval and no longer: past it, the next request computes. (Its cost
    /// is the time from asking to the answer: on a machine loaded with the whole suite even a cheap
    /// one may take a while to be scheduled, so the test waits 3 s past an interval of 100 ms,
    /// which holds unless the answer took 750 ms.)
    @Test func aCheapResultLivesItsInterval() async throws {
        let shared = SharedResults<String, Int>(interval: .milliseconds(100))
        #expect(try await shared.value(for: "event") { 1 } == 1)
        try await Task.sleep(for: .seconds(3))
        #expect(try await shared.value(for: "event") { 2 } == 2)
        #expect(await shared.runs == 2)
    }

    /// An interval of zero shares nothing past a computation, however long it took (the tests' servers
    /// read what they just wrote).
    @Test func anIntervalOfZeroSharesNothingPastTheComputation() async throws {
        let shared = SharedResults<String, Int>(interval: .zero)
        _ = try await shared.value(for: "event") {
            try await Task.sleep(for: .milliseconds(200))
            return 1
        }
        #expect(try await shared.value(for: "event") { 2 } == 2)
        #expect(await shared.runs == 2)
    }

    /// With `answersWhileComputing`, a request that finds the result expired (an interval of 4 s,
    /// 4.5 s later) starts the next computation and gets the last result at once, as do the requests
    /// while it runs; once it is done, the new one. After `forget`, nothing old answers. (The margins
    /// hold unless the first, immediate answer took over a second.)
    @Test func theLastResultAnswersWhileTheNextIsComputed() async throws {
        let shared = SharedResults<String, Int>(interval: .seconds(4), answersWhileComputing: true)
        let gate = Gate()
        #expect(try await shared.value(for: "event") { 1 } == 1)
        try await Task.sleep(for: .milliseconds(4_500))
        #expect(
            try await shared.value(for: "event") {
                await gate.wait()
                return 2
            } == 1, "the last one, at once")
        #expect(try await shared.value(for: "event") { 3 } == 1, "the last one, while the next runs")
        #expect(await shared.runs == 2)
        await gate.open()
        var answer = 1
        for _ in 0..<500 where answer == 1 {
            try await Task.sleep(for: .milliseconds(10))
            answer = try await shared.value(for: "event") { 4 }
        }
        #expect(answer == 2, "the new one once it is done")
        await shared.forget { _ in true }
        #expect(try await shared.value(for: "event") { 5 } == 5, "after forget, nothing old")
    }

    /// A last result older than twice its time does not answer: someone asking once after a while
    /// waits for a fresh one (an interval of 10 ms, 3 s later: unless the first answer took 375 ms).
    @Test func anOldLastResultDoesNotAnswer() async throws {
        let shared = SharedResults<String, Int>(interval: .milliseconds(10), answersWhileComputing: true)
        #expect(try await shared.value(for: "event") { 1 } == 1)
        try await Task.sleep(for: .seconds(3))
        #expect(try await shared.value(for: "event") { 2 } == 2)
    }

    /// A door that a computation waits at until the test opens it.
    private actor Gate {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var isOpen = false

        func wait() async {
            guard !isOpen else { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func open() {
            isOpen = true
            for continuation in waiting { continuation.resume() }
            waiting = []
        }
    }
}
