import Dispatch
import Glibc

/// Splits `0..<count` into contiguous chunks and runs `body` on each, one chunk per core.
/// Results come back in chunk order, so the outcome does not depend on scheduling.
func parallelChunks<T: Sendable>(_ count: Int, minimumChunk: Int = 1, _ body: @Sendable (Range<Int>) -> T) -> [T] {
    let workers = max(1, min(Cores.count, count / max(1, minimumChunk)))
    guard workers > 1 else { return [body(0..<count)] }
    let results = Slots<T>(count: workers)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let start = count * worker / workers, end = count * (worker + 1) / workers
        results.store(body(start..<end), at: worker)
    }
    return results.values
}

/// One slot per worker, each written by exactly one worker before `concurrentPerform` returns.
private final class Slots<T: Sendable>: @unchecked Sendable {
    private var slots: [T?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func store(_ value: T, at index: Int) { slots.withUnsafeMutableBufferPointer { $0[index] = value } }
    var values: [T] { slots.map { $0! } }
}

/// The number of cores to use (`CONSTELLATION_GRAPH_THREADS` overrides it, for measurements).
enum Cores {
    static let count: Int = {
        if let text = getenv("CONSTELLATION_GRAPH_THREADS").map({ String(cString: $0) }), let value = Int(text), value > 0 {
            return value
        }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }()
}
