import Foundation
import Graph
import GraphExport
import Testing

/// graphology and Cytoscape.js documents of any graph, as `graph layout --format` writes them.
@Suite struct RendererExportTests {
    /// Node ids that look like the edge ids `e0`, `e1`: Cytoscape's edge ids must step aside.
    let document = LayoutDocument(
        nodes: [
            .init(id: "e0", label: "Quote \"me\"", x: 0.5, y: -0.25, community: 1, degree: 2),
            .init(id: "e1", x: -1, y: 1, community: nil, degree: 1), .init(id: "e_0", x: 0, y: 0, community: 0, degree: 1),
        ],
        edges: [.init(source: "e0", target: "e1"), .init(source: "e0", target: "e_0", start: "2026-11-21T21:33:47Z")],
        seed: 1, warmStart: false, seconds: 0)

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func graphologyIsGraphologysSerialization() throws {
        let graph = try object(document.text(.graphology))
        let nodes = try #require(graph["nodes"] as? [[String: Any]])
        #expect(nodes.map { $0["key"] as? String } == ["e0", "e1", "e_0"])
        let first = try #require(nodes[0]["attributes"] as? [String: Any])
        #expect(first["label"] as? String == "Quote \"me\"" && first["x"] as? Double == 0.5 && first["y"] as? Double == -0.25)
        #expect(first["community"] as? Int == 1 && first["degree"] as? Int == 2 && first["size"] as? Double == 3.41)
        #expect((nodes[1]["attributes"] as? [String: Any])?["label"] as? String == "e1", "the id labels a node without one")
        let edges = try #require(graph["edges"] as? [[String: Any]])
        #expect(edges.map { $0["key"] as? String } == ["e0", "e1"])
        #expect((edges[1]["attributes"] as? [String: Any])?["start"] as? String == "2026-11-21T21:33:47Z")
        #expect((edges[0]["attributes"] as? [String: Any])?.isEmpty == true)
    }

    @Test func cytoscapeEdgeIdsNeverTakeANodesId() throws {
        let elements = try #require(try object(document.text(.cytoscape))["elements"] as? [String: Any])
        let nodes = try #require(elements["nodes"] as? [[String: Any]])
        let position = try #require(nodes[0]["position"] as? [String: Any])
        #expect(position["x"] as? Double == 500 && position["y"] as? Double == -250, "the layout's units times 1000")
        let edges = try #require(elements["edges"] as? [[String: Any]])
        let ids = edges.compactMap { ($0["data"] as? [String: Any])?["id"] as? String }
        #expect(ids == ["e__0", "e__1"], "e0 and e_0 are nodes")
        #expect((edges[1]["data"] as? [String: Any])?["start"] as? String == "2026-11-21T21:33:47Z")
    }
}
