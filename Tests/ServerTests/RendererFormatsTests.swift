import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// `format=graphology` and `format=cytoscape` on both network routes, checked against the shapes
/// graphology's `import` and Cytoscape.js's `elements` document.
@Suite(.tier(.database)) struct RendererFormatsTests {
    typealias JSON = [String: Any]

    static func object(_ bytes: [UInt8]) throws -> JSON {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? JSON)
    }

    /// graphology: `{attributes, options{type, multi, allowSelfLoops}, nodes[{key, attributes{x, y, label, size}}],
    /// edges[{key, source, target, undirected, attributes}]}`, every edge between node keys. Returns the node keys and labels.
    static func checkGraphology(_ bytes: [UInt8], nodes: Int, edges: Int) throws -> [(key: String, label: String)] {
        let graph = try object(bytes)
        #expect(graph["attributes"] is JSON)
        let options = try #require(graph["options"] as? JSON)
        #expect(
            options["type"] as? String == "undirected" && options["multi"] as? Bool == false && options["allowSelfLoops"] as? Bool == false)
        let nodeList = try #require(graph["nodes"] as? [JSON])
        let edgeList = try #require(graph["edges"] as? [JSON])
        #expect(nodeList.count == nodes && edgeList.count == edges)
        var found: [(key: String, label: String)] = []
        for node in nodeList {
            let key = try #require(node["key"] as? String)
            let attributes = try #require(node["attributes"] as? JSON)
            for name in ["x", "y", "size"] { #expect((attributes[name] as? NSNumber)?.doubleValue.isFinite == true, "\(name)") }
            #expect((attributes["size"] as? Double ?? 0) >= 2)
            found.append((key, try #require(attributes["label"] as? String)))
        }
        let keys = Set(found.map(\.key))
        #expect(keys.count == nodes, "node keys are unique")
        var edgeKeys = Set<String>()
        for edge in edgeList {
            #expect(keys.contains(edge["source"] as? String ?? "") && keys.contains(edge["target"] as? String ?? ""))
            #expect(edge["undirected"] as? Bool == true && edge["attributes"] is JSON)
            edgeKeys.insert(try #require(edge["key"] as? String))
        }
        #expect(edgeKeys.count == edges, "edge keys are unique")
        return found
    }

    /// Cytoscape.js: `{elements: {nodes: [{data: {id, label}, position: {x, y}}], edges: [{data: {id, source, target}}]}}`,
    /// ids unique across nodes and edges, every edge between node ids.
    static func checkCytoscape(_ bytes: [UInt8], nodes: Int, edges: Int) throws -> [String] {
        let elements = try #require(try object(bytes)["elements"] as? JSON)
        let nodeList = try #require(elements["nodes"] as? [JSON])
        let edgeList = try #require(elements["edges"] as? [JSON])
        #expect(nodeList.count == nodes && edgeList.count == edges)
        var ids: [String] = []
        for node in nodeList {
            let data = try #require(node["data"] as? JSON)
            ids.append(try #require(data["id"] as? String))
            #expect(data["label"] is String)
            let position = try #require(node["position"] as? JSON)
            #expect(
                (position["x"] as? NSNumber)?.doubleValue.isFinite == true && (position["y"] as? NSNumber)?.doubleValue.isFinite == true)
        }
        let nodeIds = Set(ids)
        for edge in edgeList {
            let data = try #require(edge["data"] as? JSON)
            ids.append(try #require(data["id"] as? String))
            #expect(nodeIds.contains(data["source"] as? String ?? "") && nodeIds.contains(data["target"] as? String ?? ""))
        }
        #expect(Set(ids).count == nodes + edges, "one namespace for nodes and edges")
        return Array(nodeIds)
    }

    @Test func myNetworkInBothFormats() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            try await EventNetworkTests.connect(ada, bob)
            try await EventNetworkTests.connect(ada, cleo)
            try await EventNetworkTests.connect(bob, cleo)
            let graphology = try await ada.client.send(.GET, "/v1/me/network?format=graphology")
            #expect(graphology.header("Content-Type")?.hasPrefix("application/json") == true)
            let nodes = try Self.checkGraphology(graphology.body, nodes: 3, edges: 3)
            #expect(Set(nodes.map(\.label)) == ["Ada", "Bob", "Cleo"])
            #expect(Set(nodes.map(\.key)) == Set([ada, bob, cleo].map { $0.profile.id.uuidString }))
            let cytoscape = try await ada.client.send(.GET, "/v1/me/network?format=cytoscape&depth=2")
            _ = try Self.checkCytoscape(cytoscape.body, nodes: 3, edges: 3)
            await expectProblem(400, "unsupported_format") { _ = try await ada.client.send(.GET, "/v1/me/network?format=dot") }
            let refusal = await #expect(throws: ClientError.self) { _ = try await ada.client.send(.GET, "/v1/me/network?format=dot") }
            #expect(
                refusal?.description.contains("cytoscape, gexf, graphml, graphology, json") == true,
                "the formats are listed: \(String(describing: refusal))")
        }
    }

    @Test func theEventsNetworkInBothFormatsHoldsNoProfileId() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan, eve, _) = try await EventNetworkTests.smallEvent(server)
            let graphology = try await ada.client.exportEventNetwork("net-event", format: "graphology")
            let nodes = try Self.checkGraphology(graphology, nodes: 4, edges: 4)
            #expect(nodes.allSatisfy { $0.key.wholeMatch(of: /p[a-z2-7]{16}/) != nil })
            let object = try Self.object(graphology)
            let starts = (object["edges"] as? [JSON] ?? []).compactMap { ($0["attributes"] as? JSON)?["start"] as? String }
            #expect(starts.count == 4, "each edge says when its pair connected")
            let cytoscape = try await ada.client.exportEventNetwork("net-event", format: "cytoscape")
            #expect(Set(try Self.checkCytoscape(cytoscape, nodes: 4, edges: 4)) == Set(nodes.map(\.key)))
            for body in [graphology, cytoscape].map({ String(decoding: $0, as: UTF8.self).lowercased() }) {
                for user in [ada, bob, cleo, dan, eve] { #expect(!body.contains(user.profile.id.uuidString.lowercased())) }
            }
            await expectProblem(400, "unsupported_format") { _ = try await ada.client.exportEventNetwork("net-event", format: "dot") }
        }
    }
}
