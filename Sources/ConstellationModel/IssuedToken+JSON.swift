extension IssuedToken {
    /// The same bytes as `JSONEncoder.constellation.encode(self)`, written directly: minting is the
    /// busiest request at an event, and the encoder cost it as much as signing the token.
    public func jsonBytes() -> [UInt8] {
        var out = JSONBytes(capacity: 2 * token.utf8.count + 256)
        out.openObject()
        if let eventId {
            out.member("eventId")
            out.uuid(eventId)
        }
        out.member("expiresAt")
        out.date(expiresAt)
        out.member("issuedAt")
        out.date(issuedAt)
        if let link {
            out.member("link")
            out.string(link)
        }
        out.member("token")
        out.string(token)
        out.member("tokenId")
        out.string(tokenId)
        out.closeObject()
        return out.bytes
    }
}
