/// Sums of edge weights from one node (or one group of nodes) to each part it touches, for the
/// hot loops of community detection, with the list of parts touched.
///
/// Each part has four running sums, and consecutive edges add to different ones: when most
/// neighbours are in the same part, as they are once communities form, a single sum would make
/// every addition wait for the one before it (through memory), about ten cycles per edge.
final class WeightsByPart {
    private let lanes: Scratch<Double>
    private let seenIn: Scratch<Int>
    private var round = 0
    /// The parts touched since `begin()`, in order of first touch.
    let touched: Scratch<Int32>
    private(set) var touchedCount = 0

    /// Room for parts numbered `0..<parts`.
    init(parts: Int) {
        lanes = Scratch(repeating: 0, count: 4 * parts)
        seenIn = Scratch(repeating: 0, count: parts)
        touched = Scratch(repeating: 0, count: parts)
    }

    /// Starts a new sum; every part must have been `clear()`ed since the last one.
    @inline(__always) func begin() {
        round &+= 1
        touchedCount = 0
    }

    /// Adds the weight of edge number `edge` (its index picks the running sum) to `part`.
    @inline(__always) func add(_ weight: Double, to part: Int, edge: Int) {
        if seenIn[part] != round {
            seenIn[part] = round
            touched[touchedCount] = Int32(part)
            touchedCount &+= 1
        }
        lanes[part &* 4 &+ (edge & 3)] += weight
    }

    /// The weight added to `part` since `begin()` (0 if none).
    @inline(__always) func weight(to part: Int) -> Double {
        let i = part &* 4
        return (lanes[i] + lanes[i &+ 1]) + (lanes[i &+ 2] + lanes[i &+ 3])
    }

    /// Zeroes the sums of the parts touched, ready for the next `begin()`.
    @inline(__always) func clear() {
        for t in 0..<touchedCount {
            let i = Int(touched[t]) &* 4
            lanes[i] = 0
            lanes[i &+ 1] = 0
            lanes[i &+ 2] = 0
            lanes[i &+ 3] = 0
        }
    }
}
