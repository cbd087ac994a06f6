import Foundation

extension EventNetwork {
    /// The same bytes as `JSONEncoder.constellation.encode(self)`, written directly: the encoder
    /// takes most of a second over a 10,000-person, 100,000-edge event, this a few hundredths.
    public func jsonBytes() throws -> [UInt8] {
        var out = JSONBytes(capacity: 128 * edges.count + 160 * nodes.count + 256)
        out.raw("{\"edges\":[")
        for (index, edge) in edges.enumerated() {
            out.raw(index == 0 ? "{\"firstAt\":" : ",{\"firstAt\":")
            out.date(edge.firstAt)
            out.raw(",\"source\":")
            out.string(edge.source)
            out.raw(",\"target\":")
            out.string(edge.target)
            out.raw("}")
        }
        out.raw("],\"meta\":{\"behind\":")
        out.bool(meta.behind)
        out.raw(",\"box\":[")
        for (index, value) in meta.box.values.enumerated() {
            if index > 0 { out.raw(",") }
            try out.number(value)
        }
        out.raw("],\"eventId\":")
        out.uuid(meta.eventId)
        out.raw(",\"layout\":")
        out.string(meta.layout)
        out.raw(",\"seed\":")
        out.integer(meta.seed)
        out.raw(",\"warmStart\":")
        out.bool(meta.warmStart)
        out.raw("},\"nodes\":[")
        for (index, node) in nodes.enumerated() {
            out.raw(index == 0 ? "{" : ",{")
            if let community = node.community {
                out.raw("\"community\":")
                out.integer(community)
                out.raw(",")
            }
            out.raw("\"degree\":")
            out.integer(node.degree)
            out.raw(",\"id\":")
            out.string(node.id)
            out.raw(",\"isMe\":")
            out.bool(node.isMe)
            out.raw(",\"label\":")
            out.string(node.label)
            if let pseudonymous = node.pseudonymous {
                out.raw(",\"pseudonymous\":")
                out.bool(pseudonymous)
            }
            out.raw(",\"x\":")
            try out.number(node.x)
            out.raw(",\"y\":")
            try out.number(node.y)
            out.raw("}")
        }
        out.raw("]}")
        return out.bytes
    }
}
