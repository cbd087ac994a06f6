import Server
import Synchronization
import Testing

/// `SharedResults` shares a costly result longer than its interval (four times what it took, so one
/// event's picture takes at most a quarter of a core however large the event grows) and, when asked
/// to, answers with the last result while the next is computed. Time is the test's own clock, moved
/// by the test (and by the computations, for what they "take"): nothing here depends on how fast a
/// loaded machine runs.
@Suite struct SharedResultsTests {
    /// A computation that takes a second, under an interval of 10 ms, is shared four seconds from its
    /// start: 3.9 s in, the same result and nothing run again; 4.1 s in, the next computation.
    @Test func aCostlyResultIsSharedFourTimesAsLongAsItTook() async throws {
        let clock = TestClock()
        let shared = SharedResults<String, Int>(interval: .milliseconds(10), now: clock.now)
        let first = try await shared.value(for: "event") {
            clock.advance(by: .seconds(1))
            return 1
        }
        clock.advance(by: .milliseconds(2_900))
        #expect((first, try await shared.value(for: "event") { 2 }) == (1, 1))
        #expect(await shared.runs == 1)
        clock.advance(by: .milliseconds(200))
        #expect(try await shared.value(for: "event") { 3 } == 3)
        #expect(await shared.runs == 2)
    }

    /// A cheap result lives its interval and no longer: past it, the next request computes.
    @Test func aCheapResultLivesItsInterval() async throws {
        let clock = TestClock()
        let shared = SharedResults<String, Int>(interval: .milliseconds(100), now: clock.now)
        #expect(try await shared.value(for: "event") { 1 } == 1)
        clock.advance(by: .milliseconds(90))
        #expect(try await shared.value(for: "event") { 2 } == 1)
        clock.advance(by: .milliseconds(20))
        #expect(try await shared.value(for: "event") { 3 } == 3)
        #expect(await shared.runs == 2)
    }

    /// An interval of zero shares nothing past a computation, however long it took (the tests'
    /// servers read what they just wrote), and never answers with the last result.
    @Test func anIntervalOfZeroSharesNothingPastTheComputation() async throws {
        let clock = TestClock()
        let shared = SharedResults<String, Int>(interval: .zero, lastAnswersFor: .seconds(30), now: clock.now)
        _ = try await shared.value(for: "event") {
            clock.advance(by: .seconds(1))
            return 1
        }
        #expect(try await shared.value(for: "event") { 2 } == 2)
        #expect(await shared.runs == 2)
    }

    /// `expire` ends a result's sharing early, but not before `costMultiple` times its computation
    /// has passed: a cheap result is made again at the next request, a costly one (2 s, shared 8 s)
    /// answers until 8 s after it began, then the last one answers while the next is made.
    @Test func anExpiredResultIsMadeAgainNoSoonerThanItsCostAllows() async throws {
        let clock = TestClock()
        let shared = SharedResults<String, Int>(interval: .seconds(4), lastAnswersFor: .seconds(30), now: clock.now)
        #expect(try await shared.value(for: "cheap") { 1 } == 1)
        #expect(
            try await shared.value(for: "costly") {
                clock.advance(by: .seconds(2))
                return 10
            } == 10)
        clock.advance(by: .seconds(1))
        await shared.expire { _ in true }
        #expect(try await shared.value(for: "cheap") { 2 } == 1, "made again, the last one answering meanwhile")
        #expect(try await shared.value(for: "costly") { 11 } == 10, "still the shared one")
        #expect(await shared.runs == 3)
        clock.advance(by: .seconds(5))  // 8 s since the costly one began
        await shared.expire { _ in true }
        #expect(try await shared.value(for: "costly") { 12 } == 10, "the last one, while the next is made")
        #expect(await shared.runs == 4)
    }

    /// With `lastAnswersFor`, a request that finds the result expired (an interval of 4 s,
    /// 4.5 s later) starts the next computation and gets the last result at once, as do the requests
    /// while it runs; once it is done, the new one. After `forget`, nothing old answers.
    @Test func theLastResultAnswersWhileTheNextIsComputed() async throws {
        let clock = TestClock()
        let shared = SharedResults<String, Int>(interval: .seconds(4), lastAnswersFor: .seconds(30), now: clock.now)
        let gate = Gate()
        #expect(try await shared.value(for: "event") { 1 } == 1)
        clock.advance(by: .milliseconds(4_500))
        #expect(
            try await shared.value(for: "event") {
                await gate.wait()
                return 2
            } == 1, "the last one, at once")
        #expect(try await shared.value(for: "event") { 3 } == 1, "the last one, while the next runs")
        #expect(await shared.runs == 2)
        await gate.open()
        // The computation ends on its own task: wait for it (however slowly a loaded machine runs it).
        var answer = 1
        while answer == 1 {
            try await Task.sleep(for: .milliseconds(10))
            answer = try await shared.value(for: "event") { 4 }
        }
        #expect(answer == 2, "the new one once it is done")
        #expect(await shared.runs == 2)
        await shared.forget { _ in true }
        #expect(try await shared.value(for: "event") { 5 } == 5, "after forget, nothing old")
    }

    /// A last result made longer than `lastAnswersFor` ago does not answer: someone asking once
    /// after a while waits for a fresh one (30 s, 31 s later).
    @Test func anOldLastResultDoesNotAnswer() async throws {
        let clock = TestClock()
        let shared = SharedResults<String, Int>(interval: .milliseconds(10), lastAnswersFor: .seconds(30), now: clock.now)
        #expect(try await shared.value(for: "event") { 1 } == 1)
        clock.advance(by: .seconds(29))
        #expect(try await shared.value(for: "event") { 2 } == 1, "29 s later: the last one, while the next is made")
        // The next one ends on its own task (the test's clock stands still meanwhile).
        while try await shared.value(for: "event", compute: { 0 }) != 2 { try await Task.sleep(for: .milliseconds(10)) }
        clock.advance(by: .seconds(32))
        #expect(try await shared.value(for: "event") { 3 } == 3, "more than 30 s after the last was made: a fresh one")
    }

    /// A clock that moves only when told to.
    private final class TestClock: Sendable {
        private let start = ContinuousClock.now
        private let offset = Mutex<Duration>(.zero)

        func advance(by duration: Duration) { offset.withLock { $0 += duration } }

        var now: @Sendable () -> ContinuousClock.Instant {
            { [self] in start + offset.withLock { $0 } }
        }
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
