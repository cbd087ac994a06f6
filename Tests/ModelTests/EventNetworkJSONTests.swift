import ConstellationModel
import Foundation
import Testing

/// The event network's JSON is written by hand (the encoder is slow on 100,000 edges): it must be
/// the very bytes `JSONEncoder.constellation` writes, so clients decode it as before.
@Suite struct EventNetworkJSONTests {
    @Test func theHandWrittenJSONIsTheEncodersByteForByte() throws {
        var random = SystemRandomNumberGenerator()
        let awkward = [
            "", "Ada", "a/b \"quoted\" back\\slash", "tab\there\nnew line\r\u{8}\u{c}", "\u{0}\u{1}\u{1f}\u{7f}",
            "é ñ 漢字 😀 \u{2028}\u{2029}", "Attendee 7KQ2MZ",
        ]
        let doubles: [Double] = [
            0, -0.0, 1, -1, 0.1, 1e-5, 2.5e-7, 1e16, 1e20, 123456.789, -0.3333333333333333, 5e-324, .ulpOfOne,
            0.9999999999999999, -1, 1,
        ]
        let nodes = (0..<200).map { index in
            EventNetwork.Node(
                id: "p\(index)", label: awkward[index % awkward.count],
                x: index < doubles.count ? doubles[index] : .random(in: -1...1, using: &random),
                y: .random(in: -1...1, using: &random), degree: index * 7, isMe: index == 3, community: index % 5 == 0 ? nil : index % 11,
                pseudonymous: index % 7 == 0 ? nil : index % 2 == 0)
        }
        let times: [Double] = [
            0, -1.5, 1_780_272_000.75, 1_780_272_000.999_999, 951_782_400, 4_102_444_799.5, -62_135_596_800, 253_402_300_799,
        ]
        let edges = (0..<300).map { index in
            EventNetwork.Edge(
                source: awkward[index % awkward.count], target: "p\(index)",
                firstAt: Date(timeIntervalSince1970: index < times.count ? times[index] : .random(in: 0...4_000_000_000, using: &random)))
        }
        for warmStart in [false, true] {
            let network = EventNetwork(
                nodes: nodes, edges: edges,
                meta: .init(
                    box: Box(minX: -1, minY: -0.5, maxX: 1, maxY: 0.75), layout: "constellation", seed: .max, warmStart: warmStart,
                    scope: .init(eventId: UUID())))
            // Every field but the communities and pseudonymity some nodes are left out of.
            #expect(
                FullyPopulated.nilFields(in: network).allSatisfy {
                    $0.hasPrefix("nodes[") && ($0.hasSuffix("].community") || $0.hasSuffix("].pseudonymous"))
                })
            let encoded = Array(try JSONEncoder.constellation.encode(network))
            let written = try network.jsonBytes()
            let first =
                zip(written, encoded).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, encoded.count)
            #expect(
                written == encoded,
                """
                they differ from byte \(first) on:
                \(String(decoding: written.dropFirst(max(0, first - 40)).prefix(120), as: UTF8.self))
                \(String(decoding: encoded.dropFirst(max(0, first - 40)).prefix(120), as: UTF8.self))
                """)
            #expect(
                try JSONDecoder.constellation.decode(EventNetwork.self, from: Data(written))
                    == EventNetwork(
                        nodes: network.nodes,
                        edges: network.edges.map {
                            .init(
                                source: $0.source, target: $0.target,
                                firstAt: Date(timeIntervalSince1970: $0.firstAt.timeIntervalSince1970.rounded(.down)))
                        },
                        meta: network.meta))
        }
        let empty = EventNetwork(
            nodes: [], edges: [],
            meta: .init(box: Box(xs: [], ys: []), layout: "", seed: 0, warmStart: false, scope: .init(eventId: UUID())))
        #expect(try empty.jsonBytes() == Array(try JSONEncoder.constellation.encode(empty)))
        let broken = EventNetwork(
            nodes: [nodes[0]], edges: [],
            meta: .init(
                box: Box(minX: .nan, minY: 0, maxX: 0, maxY: 0), layout: "", seed: 0, warmStart: false, scope: .init(eventId: UUID())))
        #expect(throws: EncodingError.self) { try broken.jsonBytes() }
    }

    /// Dates are written in the proleptic Gregorian calendar, as PostgreSQL and `RFC3339` read
    /// them: from 1583 on that is what Foundation writes too; before it Foundation writes the Julian
    /// calendar (1582-10-10 would come back ten days later), so the anchors are PostgreSQL's own
    /// figures (`extract(epoch from '0001-01-01T00:00:00Z'::timestamptz)` and so on).
    @Test func timesAreWrittenInTheCalendarPostgreSQLReads() throws {
        var random = SystemRandomNumberGenerator()
        let gregorian: [Double] = [
            -12_219_292_800, -11_676_096_001, -11_676_096_000, 253_402_300_799, -0.5, 0, 86_399.999, 86_400, 951_868_800,
        ]
        for seconds in gregorian + (0..<2_000).map({ _ in Double.random(in: -12_219_292_800...253_402_300_799, using: &random) }) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601Seconds.string(date) == date.formatted(Date.ISO8601FormatStyle()), "\(seconds)")
        }
        let postgres: [(Double, String)] = [
            (-62_135_596_800, "0001-01-01T00:00:00Z"), (-12_219_724_800, "1582-10-10T00:00:00Z"), (-12_219_292_800, "1582-10-15T00:00:00Z"),
        ]
        for (seconds, text) in postgres {
            #expect(ISO8601Seconds.string(Date(timeIntervalSince1970: seconds)) == text)
            #expect(RFC3339.date(text) == Date(timeIntervalSince1970: seconds))
        }
        // Whatever is written reads back as the same instant, to the second.
        for seconds in (0..<2_000).map({ _ in Double.random(in: -62_167_219_200...253_402_300_799, using: &random) }) {
            let date = Date(timeIntervalSince1970: seconds.rounded(.down))
            #expect(RFC3339.date(ISO8601Seconds.string(date)) == date, "\(seconds)")
        }
    }
}
