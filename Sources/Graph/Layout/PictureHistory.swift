/// What a picture that follows a growing graph remembers of how it was made, and so when it may
/// be redrawn afresh (`ConstellationLayout.grow`'s `mayLayOutAfresh`): every tenth picture (once
/// nine in a row have grown), or once the graph has half again the pairs it had at the last fresh
/// layout. The second matters when pictures are few (a busy server makes fewer while the pairs
/// arrive): each grows by more, the mixing of an early, sparse graph stays, and the tenth may
/// never come (300 people in six groups, ten pictures over the growth, 24 replays: group purity 0.77 of a fresh
/// layout's by the count alone, 0.94 with the growth, neighbourhood preservation 0.80 → 0.99;
/// 2,000 people: 0.78 → 0.94 and 0.66 → 0.97). With forty pictures it changes little. Twice the
/// pairs gained less with ten pictures (0.93 and 0.98) and put 8 of 149 people on the box of one
/// 150-person picture against a fresh layout's 4 (`GrowingPictureTests`).
public struct PictureHistory: Sendable, Equatable {
    /// Pictures grown in a row since the last one laid out afresh, counted up to `mostInARow`.
    public let grownInARow: Int
    /// The pairs of the graph the last fresh layout drew.
    public let pairsWhenDrawnAfresh: Int

    public init(grownInARow: Int, pairsWhenDrawnAfresh: Int) {
        self.grownInARow = grownInARow
        self.pairsWhenDrawnAfresh = pairsWhenDrawnAfresh
    }

    /// The most pictures in a row a history counts (and a stored picture keeps): past ten, only
    /// that there were at least ten matters.
    public static let mostInARow = 1_000

    /// The history of a picture laid out afresh from `pairs`.
    public static func drawnAfresh(pairs: Int) -> PictureHistory {
        PictureHistory(grownInARow: 0, pairsWhenDrawnAfresh: pairs)
    }

    /// Whether the next picture, of a graph of `pairs`, may be laid out afresh.
    public func mayLayOutAfresh(pairs: Int) -> Bool {
        grownInARow >= 9 || 2 * pairs >= 3 * pairsWhenDrawnAfresh
    }

    /// The history of the next picture, of a graph of `pairs`.
    public func next(pairs: Int, laidOutAfresh: Bool) -> PictureHistory {
        laidOutAfresh
            ? .drawnAfresh(pairs: pairs)
            : PictureHistory(grownInARow: min(grownInARow + 1, Self.mostInARow), pairsWhenDrawnAfresh: pairsWhenDrawnAfresh)
    }
}
