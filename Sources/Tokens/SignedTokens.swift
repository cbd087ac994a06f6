import Foundation

/// What every token this project signs shares: PASETO v4.public, a footer `{"kid":"…"}` naming the
/// signing key, and an implicit assertion naming the token's purpose, so that a token minted for
/// one purpose never verifies as another's.
enum SignedTokens {
    /// Signs `claims` with the ring's current key for the purpose `implicitAssertion`.
    static func sign(_ claims: [UInt8], implicitAssertion: String, keys: KeyRing) throws(TokenError) -> String {
        try PASETOv4Public.sign(
            message: claims, footer: Array("{\"kid\":\"\(keys.signingKid)\"}".utf8),
            implicitAssertion: Array(implicitAssertion.utf8), key: keys.signingKey)
    }

    /// The claims of `token` once its signature is checked for `implicitAssertion` against the key its
    /// footer names, and that key.
    static func open(
        _ token: String, implicitAssertion: String, keys: [String: VerificationKey]
    ) throws(TokenError) -> (claims: [UInt8], key: VerificationKey) {
        let parts = try PASETOv4Public.parse(token)  // once: the key id and the signature come from the same parts
        let kid = try keyId(inFooter: parts.footer)
        guard let key = keys[kid] else { throw .unknownKey(kid) }
        let signed = PASETOv4Public.signedBytes(of: parts, implicitAssertion: Array(implicitAssertion.utf8))
        guard key.publicKey.isValidSignature(parts.signature, for: signed) else { throw .invalidSignature }
        return (parts.message, key)
    }

    static func keyId(inFooter footer: [UInt8]) throws(TokenError) -> String {
        guard !footer.isEmpty else { throw .malformed("the footer has no key id") }
        guard let kid = FlatJSONObject(footer)?.string("kid"), !kid.isEmpty else { throw .malformed("the footer is not {\"kid\":…}") }
        return kid
    }

    /// A UUID as 22 base64url characters: its 16 bytes in the order it is written.
    static func compact(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { Base64URL.encode($0) }
    }

    /// The UUID `compact` wrote, or nil.
    static func uuid(compact text: String) -> UUID? {
        guard text.utf8.count == 22, let bytes = try? Base64URL.decode(text), bytes.count == 16 else { return nil }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
