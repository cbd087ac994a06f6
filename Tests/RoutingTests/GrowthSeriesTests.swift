import Foundation
import Server
import Store
import Testing

/// A growth series read from what a record or a restore stored: any value the column holds
/// answers with nil or a bounded series, never a trap.
struct GrowthSeriesTests {
    let day = Date(timeIntervalSince1970: 1_780_000_000)...Date(timeIntervalSince1970: 1_780_086_400)

    @Test func aRecordedSeriesOutsideTheSchemasBoundsIsNoSeries() throws {
        let sound = [[5_933_333, 1, 2, 2, 1, 2], [5_933_334, 0, 0, 2, 1, 2]]
        #expect(GrowthSeries(recorded: sound)?.recorded == sound)
        // The archive that stopped the server: a step near 2^63 overflowed its arithmetic.
        #expect(GrowthSeries(recorded: [[Int.max, 1, 1, 1, 1, 1]]) == nil)
        #expect(GrowthSeries(recorded: [[Int.max - 1, 1, 1, 1, 1, 1], [Int.max, 1, 1, 1, 1, 1]]) == nil)
        #expect(GrowthSeries(recorded: [[-1, 1, 1, 1, 1, 1]]) == nil)
        #expect(GrowthSeries(recorded: [[5_933_333, -1, 1, 1, 1, 1]]) == nil)
        #expect(GrowthSeries(recorded: [[5_933_333, 1, 1, 1, 1]]) == nil)
        #expect(GrowthSeries(recorded: [[5_933_333, 1, 1, 1, 1, 1], [5_933_335, 1, 1, 1, 1, 1]]) == nil)
        #expect(GrowthSeries(recorded: [[], [1, 1, 1, 1, 1, 1]]) == nil)
        let largest = GrowthSeries.largestRecorded
        // The largest the schema lets through is read and answered, 20,000 years on, without a trap.
        let edge = try #require(GrowthSeries(recorded: [[largest, largest, largest, largest, largest, largest]]))
        let window = try #require(try edge.window(size: 86_400, from: nil, to: nil, within: day))
        #expect(edge.buckets(window).last?.cumulativeConnections == largest)
        #expect(throws: GrowthSeries.WindowError.self) {
            try edge.window(size: 300, from: day.lowerBound, to: Date(timeIntervalSince1970: 253_402_300_000), within: day)
        }
        // Not asked for, the rest of the 20,000 years is the event's day instead (widened to whole buckets).
        let asked = try #require(try edge.window(size: 300, from: day.lowerBound, to: nil, within: day))
        #expect(edge.buckets(asked).count == 289)
    }

    /// Two people who met five weeks before an eight-hour event (its code scanned early): the
    /// growth asked for without dates, in five-minute buckets, is the event's dates, its first
    /// bucket counting them. Before, it was 10,000 buckets too many, refused, and every page's chart with it.
    @Test func aPairWeeksBeforeTheEventLeavesItsChartTheEventsDates() throws {
        let start = Date(timeIntervalSince1970: 1_780_000_200)  // on a five minutes' boundary
        let event = start...start.addingTimeInterval(8 * 3_600)
        let (a, b, c) = (UUID(), UUID(), UUID())
        let series = GrowthSeries([
            EventPair(profileA: a, profileB: b, firstAt: event.lowerBound.addingTimeInterval(-35 * 86_400)),
            EventPair(profileA: a, profileB: c, firstAt: event.lowerBound.addingTimeInterval(3_600)),
        ])
        let window = try #require(try series.window(size: 300, from: nil, to: nil, within: event))
        let buckets = series.buckets(window)
        #expect(buckets.count == 96 && buckets.first?.start == event.lowerBound, "its eight hours")
        #expect(buckets.first?.cumulativeConnections == 1 && buckets.last?.cumulativeConnections == 2)
        let early = GrowthSeries([EventPair(profileA: a, profileB: b, firstAt: event.lowerBound.addingTimeInterval(-35 * 86_400))])
        let onlyEarly = try #require(try early.window(size: 300, from: nil, to: nil, within: event))
        #expect(early.buckets(onlyEarly).last?.cumulativeConnections == 1, "the pair is shown, never nothing")
        // Asked for in so many words, it is refused, as before.
        #expect(throws: GrowthSeries.WindowError.self) {
            try series.window(size: 300, from: event.lowerBound.addingTimeInterval(-35 * 86_400), to: nil, within: event)
        }
    }

    /// One pair dated centuries after the rest (a hand-made row) is counted in a series that
    /// spans a year at most, not in a step for every five minutes between.
    @Test func aPairFarFromTheRestIsCountedInABoundedSeries() throws {
        let (a, b, c) = (UUID(), UUID(), UUID())
        let series = GrowthSeries([
            EventPair(profileA: a, profileB: b, firstAt: day.lowerBound),
            EventPair(profileA: a, profileB: c, firstAt: Date(timeIntervalSince1970: 253_402_300_000)),
        ])
        #expect(series.recorded.count == GrowthSeries.longestSpan + 1)
        #expect(series.recorded.last?[4] == 2)
    }
}
