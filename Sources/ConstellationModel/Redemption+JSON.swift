extension Redemption {
    /// The same bytes as `JSONEncoder.constellation.encode(self)`, written directly: a redemption is
    /// the request an event makes most, and the encoder cost it about as much as its signature check.
    public func jsonBytes() -> [UInt8] {
        var out = JSONBytes(capacity: 512)
        out.openObject()
        if let clientNonce {
            out.member("clientNonce")
            out.string(clientNonce)
        }
        out.member("connection")
        connection.write(to: &out)
        out.member("created")
        out.bool(created)
        out.closeObject()
        return out.bytes
    }
}

extension Connection {
    /// Writes this connection as `JSONEncoder.constellation` would, keys sorted, nil fields left out.
    func write(to out: inout JSONBytes) {
        out.openObject()
        if let card {
            out.member("card")
            out.raw("[")
            for (index, entry) in card.enumerated() {
                if index > 0 { out.raw(",") }
                entry.write(to: &out)
            }
            out.raw("]")
        }
        out.member("connectedAt")
        out.date(connectedAt)
        if let eventId {
            out.member("eventId")
            out.uuid(eventId)
        }
        if let eventName {
            out.member("eventName")
            out.string(eventName)
        }
        out.member("id")
        out.integer(id)
        if let note {
            out.member("note")
            out.string(note)
        }
        out.member("peer")
        peer.write(to: &out)
        if let tags {
            out.member("tags")
            out.raw("[")
            for (index, tag) in tags.enumerated() {
                if index > 0 { out.raw(",") }
                out.string(tag)
            }
            out.raw("]")
        }
        out.closeObject()
    }
}

extension Profile {
    /// Writes this profile as `JSONEncoder.constellation` would, keys sorted, nil fields left out.
    func write(to out: inout JSONBytes) {
        out.openObject()
        out.member("createdAt")
        out.date(createdAt)
        out.member("displayName")
        out.string(displayName)
        if let headline {
            out.member("headline")
            out.string(headline)
        }
        out.member("id")
        out.uuid(id)
        out.closeObject()
    }
}

extension ContactEntry {
    /// Writes this entry as `JSONEncoder.constellation` would, keys sorted, nil fields left out.
    func write(to out: inout JSONBytes) {
        out.openObject()
        if let audience {
            out.member("audience")
            out.string(audience.rawValue)
        }
        out.member("kind")
        out.string(kind.rawValue)
        if let label {
            out.member("label")
            out.string(label)
        }
        out.member("value")
        out.string(value)
        out.closeObject()
    }
}
