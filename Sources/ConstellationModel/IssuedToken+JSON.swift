extension IssuedToken {
    /// The same bytes as `JSONEncoder.constellation.encode(self)`, written directly: minting is the
    /// busiest request at an event, and the encoder cost it as much as signing the token.
    public func jsonBytes() -> [UInt8] {
        var out = JSONBytes(capacity: 2 * token.utf8.count + 256)
        if let eventId {
            out.raw("{\"eventId\":")
            out.uuid(eventId)
            out.raw(",\"expiresAt\":")
        } else {
            out.raw("{\"expiresAt\":")
        }
        out.date(expiresAt)
        out.raw(",\"issuedAt\":")
        out.date(issuedAt)
        if let link {
            out.raw(",\"link\":")
            out.string(link)
        }
        out.raw(",\"token\":")
        out.string(token)
        out.raw(",\"tokenId\":")
        out.string(tokenId)
        out.raw("}")
        return out.bytes
    }
}
