import Graph

// fuzz-edge-list: each input, as a file's text, is parsed in every format (`u v` edge list, CSV with a header,
// SocioPatterns `t i j`), as `constellation graph` reads files, and as its bytes, as `constellation-server import
// sociopatterns` reads them.
// A malformed line is an expected refusal. A parsed graph must hold together (`precondition`): its adjacency
// in range and symmetric, its ids distinct, its first contacts between distinct known nodes, its times spanning theirs.
//
// libFuzzer supplies `main`: `swift build --sanitize fuzzer` compiles this file as a library (Tools/fuzz).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEdgeList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    for format in EdgeListFormat.allCases {
        if let parsed = try? EdgeListParser.parse(text, format: format) { check(parsed) }
        // The bytes as they are: refused if they are not UTF-8, else read as their text is.
        let fromBytes = try? EdgeListParser.parse(bytes: bytes, format: format)
        precondition(fromBytes == nil || String(validating: bytes, as: UTF8.self) != nil, "bytes that are not UTF-8 were read")
        if let fromBytes { check(fromBytes) }
    }
    return 0
}

private func check(_ parsed: ParsedGraph) {
    let graph = parsed.graph
    let n = graph.ids.count
    precondition(Set(graph.ids).count == n, "two nodes have the same id")
    precondition(graph.offsets.count == n + 1 && graph.offsets.last == graph.neighbours.count, "offsets do not cover the adjacency")
    for v in 0..<n {
        let list = graph.neighbours[graph.offsets[v]..<graph.offsets[v + 1]]
        precondition(zip(list, list.dropFirst()).allSatisfy { $0 < $1 }, "an adjacency list is not sorted and unique")
        for u in list {
            precondition(u >= 0 && Int(u) < n && Int(u) != v, "a neighbour is out of range or a self-loop")
            precondition(graph.neighbours[graph.offsets[Int(u)]..<graph.offsets[Int(u) + 1]].contains(Int32(v)), "an edge is one-way")
        }
    }
    for contact in parsed.firstContacts ?? [] {
        precondition(contact.a < contact.b && Int(contact.b) < n, "a first contact is not between two distinct nodes")
        precondition(parsed.times?.contains(contact.time) == true, "a first contact is outside the file's times")
    }
}
