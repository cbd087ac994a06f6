import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits `0..<count` into contiguous chunks and runs `body` on each, one chunk per core.
/// Results come back in chunk order, so the outcome does not depend on scheduling.
func parallelChunks<T: Sendable>(_ count: Int, minimumChunk: Int = 1, _ body: @Sendable (Range<Int>) -> T) -> [T] {
    let workers = max(1, min(GraphThreads.count, count / max(1, minimumChunk)))
    guard workers > 1 else { return [body(0..<count)] }
    let results = Slots<T>(count: workers)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let start = count * worker / workers
        let end = count * (worker + 1) / workers
        results.store(body(start..<end), at: worker)
    }
    return results.values
}

/// One slot per worker, each written by exactly one worker before `concurrentPerform` returns.
/// The slots live in memory allocated once: workers write through the pointer to their own slot
/// and never mutate a shared `Array` (whose copy-on-write bookkeeping is not thread-safe).
private final class Slots<T: Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<T?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ value: T, at index: Int) {
        precondition(slots.indices.contains(index), "a worker's slot")
        slots[index] = value
    }

    var values: [T] { slots.map { $0! } }
}

/// How many threads one piece of graph work may use: one per core unless limited (for measurements,
/// or to leave cores to other work). The executables set it from `CONSTELLATION_GRAPH_THREADS`.
public enum GraphThreads {
    private static let limit = Atomic<Int>(0)

    /// Limits graph work to `count` threads from now on; 0 or less: one per core.
    public static func limit(to count: Int) {
        limit.store(max(0, count), ordering: .relaxed)
    }

    /// Runs `body` with graph work started on this thread limited to `count` threads (1: this
    /// thread alone), whatever the process's limit; as before afterwards.
    public static func onThisThread<T>(limitedTo count: Int, _ body: () throws -> T) rethrows -> T {
        let outer = pthread_getspecific(threadLimit)
        pthread_setspecific(threadLimit, UnsafeRawPointer(bitPattern: max(1, count)))
        defer { pthread_setspecific(threadLimit, outer) }
        return try body()
    }

    /// The threads graph work started on this thread may use now.
    public static var count: Int {
        if let local = pthread_getspecific(threadLimit) { return Int(bitPattern: local) }
        let limit = limit.load(ordering: .relaxed)
        return limit > 0 ? limit : cores
    }

    /// This thread's limit, where `onThisThread` set one.
    private static let threadLimit: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "a thread-specific key")
        return key
    }()

    private static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
