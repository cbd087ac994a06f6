import Foundation
import TestSupport
import Testing

/// `constellation graph layout|stats`, offline, through the real binary.
@Suite(.tier(.endToEnd)) struct GraphCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("graph-cli-\(UUID().uuidString)")
    let karate = TestDatabase.repositoryRoot.appendingPathComponent("Tests/GraphTests/Fixtures/karate.edges").path

    init() throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func run(_ arguments: [String]) throws -> Binaries.Output {
        try Binaries.cli(["graph"] + arguments, home: home, server: "http://127.0.0.1:9")
    }

    @Test func statsJSONHasTheAgreedKeys() throws {
        let output = try run(["stats", karate, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        for key in [
            "nodes", "edges", "density", "triangles", "transitivity", "averageClustering", "components", "maxCore",
            "diameter", "averageShortestPath", "communities",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["nodes"] as? Int == 34 && object["triangles"] as? Int == 45)
        #expect((object["diameter"] as? [String: Any])?["method"] as? String == "exact")
    }

    @Test func layoutWritesEveryFormatAndWarmStarts() throws {
        let first = home.appendingPathComponent("first.json")
        #expect(try run(["layout", karate, "--seed", "3", "-o", first.path]).status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: first)) as? [String: Any])
        let nodes = try #require(document["nodes"] as? [[String: Any]])
        #expect(nodes.count == 34 && (document["edges"] as? [Any])?.count == 78)
        #expect(nodes.allSatisfy { $0["x"] is Double && $0["y"] is Double && $0["community"] is Int && $0["degree"] is Int })
        let warm = try run(["layout", karate, "--warm-start", first.path])
        #expect(warm.status == 0 && warm.stdout.contains("\"warmStart\":true"))
        #expect(try run(["layout", karate, "--format", "gexf"]).stdout.contains("<viz:position"))
        #expect(try run(["layout", karate, "--format", "graphml"]).stdout.contains("<graphml"))
        #expect(try run(["layout", karate, "--format", "svg"]).stdout.hasPrefix("<svg"))
    }

    @Test func badInputNamesTheLineAndExits65() throws {
        let bad = home.appendingPathComponent("bad.edges")
        try "a b\n# fine\nlonely\n".write(to: bad, atomically: true, encoding: .utf8)
        let output = try run(["stats", bad.path])
        #expect(output.status == 65)
        #expect(output.stderr.contains("line 3"))
        let notLayout = home.appendingPathComponent("not-a-layout.json")
        try "{}".write(to: notLayout, atomically: true, encoding: .utf8)
        #expect(try run(["layout", karate, "--warm-start", notLayout.path]).status == 65)
        #expect(try run(["stats", home.appendingPathComponent("missing").path]).status == 66)
    }

    /// A warm start from a layout edited by hand: a node far beyond any picture (the layout
    /// crashed converting its places to grid cells) is refused with a message naming it; people
    /// all on one spot, or a hair apart with one far away (its pairs a 10¹⁰⁶th of its spread,
    /// which crashed the same way), are grown like any others.
    @Test func aWarmStartFromAnEditedLayoutIsRefusedOrGrownNeverACrash() throws {
        let first = home.appendingPathComponent("edited.json")
        #expect(try run(["layout", karate, "-o", first.path]).status == 0)
        let original = try String(contentsOf: first, encoding: .utf8)
        func edited(_ name: String, _ place: (Int) -> String) throws -> String {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
            var nodes = try #require(object["nodes"] as? [[String: Any]])
            for index in nodes.indices {
                let xy = place(index).split(separator: ",").map { Double($0)! }
                (nodes[index]["x"], nodes[index]["y"]) = (xy[0], xy[1])
            }
            object["nodes"] = nodes
            let file = home.appendingPathComponent(name)
            try JSONSerialization.data(withJSONObject: object).write(to: file)
            return file.path
        }
        for far in ["1e308,0", "-1e200,3", "0,1000001"] {
            let output = try run(["layout", karate, "--warm-start", try edited("far.json") { $0 == 5 ? far : "0.5,0.5" }])
            #expect(output.status == 65, "\(far): \(output.stderr)")
            #expect(output.stderr.contains("is at (") && output.stderr.contains("±1,000,000"), "\(output.stderr)")
        }
        let places: [(String, (Int) -> String)] = [
            ("spot", { _ in "0.25,0.25" }), ("hair", { $0 == 0 ? "1000000,0" : "\(1e-100 * Double($0)),0" }),
        ]
        for (name, place) in places {
            let output = try run(["layout", karate, "--warm-start", try edited("\(name).json", place)])
            #expect(output.status == 0 && output.stdout.contains("\"warmStart\":true"), "\(name): \(output.stderr)")
            #expect(!output.stdout.contains("nan") && !output.stdout.contains("null"), "\(name): \(output.stdout.prefix(300))")
        }
    }
}
