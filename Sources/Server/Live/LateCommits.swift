/// Where a feed stands in an increasing series of numbers (pair numbers, connection ids) that
/// transactions take before they commit: one that took its number first may commit after a later
/// one. A number skipped over is awaited for `window`, then given up (a rolled-back or duplicate
/// insert uses one up too).
struct LateCommits {
    /// The highest number seen.
    private(set) var position: Int64
    private var missing: [Int64: ContinuousClock.Instant] = [:]
    let window: Duration

    init(from position: Int64, window: Duration = .seconds(10)) {
        self.position = position
        self.window = window
    }

    /// The numbers still awaited, in order: ask for these beside those after `position`.
    var awaited: [Int64] { missing.keys.sorted() }

    /// Takes `number` as seen: past `position`, the numbers between are awaited from now (up to
    /// 10,000 of them); below it, an awaited one has come.
    mutating func saw(_ number: Int64) {
        if number > position {
            // Reported, not trapped: a restored sequence may put the two 2^63 apart.
            let (gap, overflow) = number.subtractingReportingOverflow(position)
            if !overflow, gap <= 10_000 {
                for skipped in (position + 1)..<number { missing[skipped] = .now }
            }
            position = number
        } else {
            missing[number] = nil
        }
    }

    /// Gives up the numbers awaited longer than `window`.
    mutating func expire() {
        let expired = ContinuousClock.now - window
        missing = missing.filter { $0.value > expired }
    }
}
