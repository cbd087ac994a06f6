import Graph
import Testing

/// When a followed picture may be redrawn afresh, and what its history keeps.
struct PictureHistoryTests {
    @Test func aRedrawIsAllowedEveryTenthPictureOrOnceThePairsHaveGrownByHalf() {
        var history = PictureHistory.drawnAfresh(pairs: 100)
        var allowed: [Int] = []
        for picture in 1...20 {
            if history.mayLayOutAfresh(pairs: 110) { allowed.append(picture) }
            history = history.next(pairs: 110, laidOutAfresh: false)
        }
        #expect(allowed.first == 10, "the tenth picture after a fresh layout, and every one after it until one is taken")
        #expect(allowed == Array(10...20))
        #expect(!PictureHistory.drawnAfresh(pairs: 100).mayLayOutAfresh(pairs: 149))
        #expect(PictureHistory.drawnAfresh(pairs: 100).mayLayOutAfresh(pairs: 150), "half again the pairs")
        #expect(history.next(pairs: 300, laidOutAfresh: true) == .drawnAfresh(pairs: 300), "a fresh layout starts the count again")
    }

    @Test func theCountStopsWhereAStoredPictureKeepsIt() {
        let long = PictureHistory(grownInARow: PictureHistory.mostInARow, pairsWhenDrawnAfresh: 5)
        let next = long.next(pairs: 5, laidOutAfresh: false)
        #expect(next.grownInARow == PictureHistory.mostInARow)
        #expect(next.mayLayOutAfresh(pairs: 5))
    }
}
