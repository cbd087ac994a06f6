/// A secret for pseudonyms that only the server can compute: keyed BLAKE2b under a 32-byte key.
/// Someone who knows a profile id cannot work out its pseudonym without this key.
///
/// The key of a purpose was first derived from the signing key's seed; since keys rotate, the
/// server stores it apart (`pseudonym-key`, `CONSTELLATION_PSEUDONYM_KEY`), so that pseudonyms
/// outlive the signing key they were first derived from.
public struct PseudonymKey: Sendable {
    private let key: SecretBytes

    /// The purpose of organizers' per-event pseudonyms.
    public static let eventPurpose = "constellation:event-pseudonym:v1"
    /// How `encoded` starts.
    static let prefix = "cst.pseudonym.v1."

    /// The key for `purpose`, derived from `signingKey`'s seed: BLAKE2b(purpose) keyed by the seed.
    public init(purpose: String, signingKey: SigningKey) throws(TokenError) {
        let seed = try SecretBytes(count: Sodium.seedLength) { (seed: UnsafeMutableRawBufferPointer) throws(TokenError) in
            signingKey.secretKey.withUnsafeBytes { secret in
                seed.copyMemory(from: UnsafeRawBufferPointer(rebasing: secret.prefix(Sodium.seedLength)))
            }
        }
        var derived = try Sodium.blake2b(Array(purpose.utf8), length: 32, key: seed)
        defer { derived.withUnsafeMutableBytes(Sodium.wipe) }
        try self.init(bytes: derived)
    }

    /// Parses `encoded`'s text: `cst.pseudonym.v1.<base64url of 32 bytes>`.
    public init(encoded text: String) throws(TokenError) {
        guard text.hasPrefix(Self.prefix) else { throw .invalidKey("expected a pseudonym key (\(Self.prefix)…)") }
        var bytes = try Base64URL.decode(text.dropFirst(Self.prefix.count))
        defer { bytes.withUnsafeMutableBytes(Sodium.wipe) }
        guard bytes.count == 32 else { throw .invalidKey("a pseudonym key is 32 bytes, not \(bytes.count)") }
        guard bytes.contains(where: { $0 != 0 }) else { throw .invalidKey("a pseudonym key of all zeros is no secret") }
        try self.init(bytes: bytes)
    }

    private init(bytes: [UInt8]) throws(TokenError) {
        key = try SecretBytes(count: bytes.count) { (target: UnsafeMutableRawBufferPointer) throws(TokenError) in
            bytes.withUnsafeBytes { target.copyMemory(from: $0) }
        }
    }

    private init(secret: SecretBytes) {
        key = secret
    }

    /// A new random key.
    public static func generate() throws(TokenError) -> PseudonymKey {
        PseudonymKey(secret: try Sodium.randomSecret(32))
    }

    /// The key as text, to be stored as a secret (the server's `pseudonym-key` file).
    public var encoded: String {
        Self.prefix + key.withUnsafeBytes { Base64URL.encode($0) }
    }

    /// BLAKE2b of `message` under this key, `length` bytes (16…64).
    public func digest(_ message: [UInt8], length: Int) throws(TokenError) -> [UInt8] {
        try Sodium.blake2b(message, length: length, key: key)
    }
}
