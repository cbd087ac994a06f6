import Graph
import Testing

@Suite struct EdgeListParserTests {
    @Test func edgeListsSkipCommentsAndIgnoreAThirdColumn() throws {
        let parsed = try EdgeListParser.parse("# comment\n\na b 0.5\nb\tc\n\nc a 7\r\n", format: .edgeList)
        #expect(parsed.graph.ids == ["a", "b", "c"])
        #expect(parsed.graph.edgeCount == 3)
        #expect(parsed.lines == 3)
    }

    /// Windows line ends on every line, ids in any script (the exact bytes: a decomposed "é" is
    /// another id than the composed one), and a tij file's people read as numbers.
    @Test func crlfLinesUnicodeIdsAndNumberedPeople() throws {
        let parsed = try EdgeListParser.parse("Zoë 北京\r\n北京 e\u{301}\r\n\u{E9} Zoë\r\n", format: .edgeList)
        #expect(parsed.graph.ids == ["Zoë", "北京", "e\u{301}", "\u{E9}"])
        #expect(parsed.graph.edgeCount == 3 && parsed.lines == 3)
        let tij = try EdgeListParser.parse("5 007 8\r\n6 7 +8\r\n7 -1 7\r\n", format: .tij)
        #expect(tij.graph.ids == ["7", "8", "-1"])
        #expect(tij.firstContacts == [FirstContact(a: 0, b: 1, time: 5), FirstContact(a: 0, b: 2, time: 7)])
        #expect(throws: EdgeListError.self) { try EdgeListParser.parse("1 2 99999999999999999999\n", format: .tij) }
        // Small numbers are interned through an array and large ones by hash: both kinds are one person each.
        let mixed = try EdgeListParser.parse(
            bytes: Array("1 5000000 3\n2 3 5000000\n3 -4 03\n4 9223372036854775807 3\n".utf8), format: .tij)
        #expect(mixed.graph.ids == ["5000000", "3", "-4", "9223372036854775807"])
        #expect(throws: EdgeListError(line: 2, reason: "not UTF-8 text")) {
            try EdgeListParser.parse(bytes: Array("a b\n".utf8) + [0xFF, 0x20, 0x62, 0x0A], format: .edgeList)
        }
        #expect(
            mixed.firstContacts == [
                FirstContact(a: 0, b: 1, time: 1), FirstContact(a: 1, b: 2, time: 3), FirstContact(a: 1, b: 3, time: 4),
            ])
    }

    @Test func csvHasAHeader() throws {
        let parsed = try EdgeListParser.parse("source,target,weight\nalice, bob ,1\n\"bob\",carol,2\n", format: .csv)
        #expect(parsed.graph.ids == ["alice", "bob", "carol"])
        #expect(parsed.graph.edgeCount == 2)
    }

    @Test func tijAggregatesContactsAndKeepsTheEarliestTime() throws {
        let parsed = try EdgeListParser.parse("20 1 2\n40 1 2\n40 2 3\n60 2 1\n60 3 3\n10 3 2\n", format: .tij)
        #expect(parsed.graph.ids == ["1", "2", "3"])
        #expect(parsed.graph.edgeCount == 2)
        #expect(parsed.graph.droppedDuplicates == 3 && parsed.graph.droppedSelfLoops == 1)
        #expect(parsed.firstContacts == [FirstContact(a: 0, b: 1, time: 20), FirstContact(a: 1, b: 2, time: 10)])
        #expect(parsed.times == 10...60)
        #expect(try EdgeListParser.parse("a b\n", format: .edgeList).firstContacts == nil)
    }

    @Test func selfLoopsAndRepeatsAreDroppedAndCounted() throws {
        let graph = try EdgeListParser.parse("1 1\n1 2\n2 1\n1 2\n", format: .edgeList).graph
        #expect(graph.edgeCount == 1)
        #expect(graph.droppedSelfLoops == 1)
        #expect(graph.droppedDuplicates == 2)
    }

    @Test func malformedLinesNameTheirLine() {
        #expect(throws: EdgeListError(line: 3, reason: "expected two node ids, found 'lonely'")) {
            try EdgeListParser.parse("a b\n# fine\nlonely\n", format: .edgeList)
        }
        #expect(throws: EdgeListError.self) { try EdgeListParser.parse("x 1 2\n", format: .tij) }
        #expect(
            throws: EdgeListError(
                line: 2, reason: "expected 't i j' (a time in seconds and two person ids, whole numbers), found '12 abc 7'")
        ) {
            try EdgeListParser.parse("10 1 2\n12 abc 7\n", format: .tij)
        }
        #expect(throws: EdgeListError.self) { try EdgeListParser.parse("source,target\nonly\n", format: .csv) }
    }

    @Test func formatIsGuessedFromTheName() {
        #expect(EdgeListFormat.guess(fileName: "a.csv") == .csv)
        #expect(EdgeListFormat.guess(fileName: "sociopatterns_ht09_tij.dat") == .tij)
        #expect(EdgeListFormat.guess(fileName: "facebook.txt") == .edgeList)
    }

    @Test func emptyInputsGiveEmptyStatistics() {
        let empty = GraphStatistics(Graph<String>(edges: []))
        #expect(empty.nodes == 0 && empty.edges == 0 && empty.communities.count == 0)
        let single = GraphStatistics(Graph(nodes: ["x"], edges: []))
        #expect(single.nodes == 1 && single.components.count == 1 && single.averageClustering == 0)
    }
}
