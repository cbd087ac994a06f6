extension Redemption {
    /// The same bytes as `JSONEncoder.constellation.encode(self)`, written directly: a redemption is
    /// the request an event makes most, and the encoder cost it about as much as its signature check.
    public func jsonBytes() -> [UInt8] {
        var out = JSONBytes(capacity: 512)
        if let clientNonce {
            out.raw("{\"clientNonce\":")
            out.string(clientNonce)
            out.raw(",\"connection\":")
        } else {
            out.raw("{\"connection\":")
        }
        connection.write(to: &out)
        out.raw(",\"created\":")
        out.bool(created)
        out.raw("}")
        return out.bytes
    }
}

extension Connection {
    /// Writes this connection as `JSONEncoder.constellation` would, keys sorted, nil fields left out.
    func write(to out: inout JSONBytes) {
        out.raw("{\"connectedAt\":")
        out.date(connectedAt)
        if let eventId {
            out.raw(",\"eventId\":")
            out.uuid(eventId)
        }
        if let eventName {
            out.raw(",\"eventName\":")
            out.string(eventName)
        }
        out.raw(",\"id\":")
        out.integer(id)
        if let note {
            out.raw(",\"note\":")
            out.string(note)
        }
        out.raw(",\"peer\":")
        peer.write(to: &out)
        if let tags {
            out.raw(",\"tags\":[")
            for (index, tag) in tags.enumerated() {
                if index > 0 { out.raw(",") }
                out.string(tag)
            }
            out.raw("]")
        }
        out.raw("}")
    }
}

extension Profile {
    /// Writes this profile as `JSONEncoder.constellation` would, keys sorted, nil fields left out.
    func write(to out: inout JSONBytes) {
        out.raw("{\"createdAt\":")
        out.date(createdAt)
        out.raw(",\"displayName\":")
        out.string(displayName)
        if let headline {
            out.raw(",\"headline\":")
            out.string(headline)
        }
        out.raw(",\"id\":")
        out.uuid(id)
        out.raw("}")
    }
}
