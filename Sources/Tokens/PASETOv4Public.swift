/// PASETO `v4.public`: Ed25519 signatures over PAE(header, message, footer, implicit assertion).
public enum PASETOv4Public {
    static let header = "v4.public."

    /// Signs `message` and returns the token `v4.public.<message‖signature>[.<footer>]`.
    public static func sign(
        message: [UInt8], footer: [UInt8] = [], implicitAssertion: [UInt8] = [], key: SigningKey
    ) throws(TokenError) -> String {
        let signed = PreAuthenticationEncoding.encode([Array(header.utf8), message, footer, implicitAssertion])
        let signature = try key.sign(signed)
        var token = header + Base64URL.encode(message + signature)
        if !footer.isEmpty { token += "." + Base64URL.encode(footer) }
        return token
    }

    /// The parts of a token, decoded but not yet verified.
    public struct Parts: Sendable {
        public let message: [UInt8]
        public let signature: [UInt8]
        public let footer: [UInt8]
    }

    /// Splits and decodes a token without checking its signature (to read the key id in its footer).
    /// Works on the token's UTF-8 bytes: splitting the `String` itself walked grapheme clusters, a
    /// fifth of the cost of verifying a token besides the signature check.
    public static func parse(_ token: String) throws(TokenError) -> Parts {
        let pieces = Array(token.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard pieces.count >= 3 else { throw .malformed("expected v4.public.<payload>[.<footer>]") }
        guard pieces[0].elementsEqual("v4".utf8), pieces[1].elementsEqual("public".utf8) else {
            throw .unsupportedVersion(String(decoding: pieces[0], as: UTF8.self) + "." + String(decoding: pieces[1], as: UTF8.self))
        }
        guard pieces.count <= 4 else { throw .malformed("too many parts") }
        let payload = try Base64URL.decode(bytes: pieces[2])
        guard payload.count >= Sodium.signatureLength else { throw .malformed("payload shorter than a signature") }
        var footer: [UInt8] = []
        if pieces.count == 4 {
            guard !pieces[3].isEmpty else { throw .malformed("empty footer part") }
            footer = try Base64URL.decode(bytes: pieces[3])
        }
        return Parts(
            message: Array(payload.dropLast(Sodium.signatureLength)),
            signature: Array(payload.suffix(Sodium.signatureLength)),
            footer: footer
        )
    }

    /// Verifies `token` under `key` and returns its parts; throws `.invalidSignature` on any mismatch.
    public static func verify(
        _ token: String, implicitAssertion: [UInt8] = [], key: PublicKey
    ) throws(TokenError) -> Parts {
        let parts = try parse(token)
        guard key.isValidSignature(parts.signature, for: signedBytes(of: parts, implicitAssertion: implicitAssertion)) else {
            throw .invalidSignature
        }
        return parts
    }

    /// What the signature of `parts` covers: PAE(header, message, footer, implicit assertion).
    public static func signedBytes(of parts: Parts, implicitAssertion: [UInt8] = []) -> [UInt8] {
        PreAuthenticationEncoding.encode([Array(header.utf8), parts.message, parts.footer, implicitAssertion])
    }
}
