/// PASERK serialisations of v4 keys: `k4.public.…`, `k4.secret.…` and the key id `k4.pid.…`.
public enum PASERK {
    package static let publicPrefix = "k4.public."
    package static let secretPrefix = "k4.secret."
    static let publicIdPrefix = "k4.pid."

    /// `k4.public.<base64url(public key)>`
    public static func encode(_ key: PublicKey) -> String {
        publicPrefix + Base64URL.encode(key.bytes)
    }

    /// `k4.secret.<base64url(64-byte secret key)>`
    public static func encode(_ key: SigningKey) -> String {
        secretPrefix + key.secretKey.withUnsafeBytes { Base64URL.encode($0) }
    }

    /// `k4.pid.<base64url(BLAKE2b-264("k4.pid." ‖ k4.public string))>`: a stable public key id.
    public static func publicId(of key: PublicKey) throws(TokenError) -> String {
        let hash = try Sodium.blake2b(Array((publicIdPrefix + encode(key)).utf8), length: 33)
        return publicIdPrefix + Base64URL.encode(hash)
    }

    /// Parses `k4.public.…`.
    public static func decodePublicKey(_ text: String) throws(TokenError) -> PublicKey {
        guard text.hasPrefix(publicPrefix) else { throw .invalidKey("expected a k4.public PASERK") }
        return try PublicKey(bytes: Base64URL.decode(text.dropFirst(publicPrefix.count)))
    }

    /// Parses `k4.secret.…`, checking that its public half matches its seed.
    public static func decodeSigningKey(_ text: String) throws(TokenError) -> SigningKey {
        guard text.hasPrefix(secretPrefix) else { throw .invalidKey("expected a k4.secret PASERK") }
        var bytes = try Base64URL.decode(text.dropFirst(secretPrefix.count))
        defer { bytes.withUnsafeMutableBytes(Sodium.wipe) }
        guard bytes.count == Sodium.secretKeyLength else {
            throw .invalidKey("a k4.secret key is \(Sodium.secretKeyLength) bytes")
        }
        let seed = try SecretBytes(count: Sodium.seedLength) { $0.copyBytes(from: bytes.prefix(Sodium.seedLength)) }
        let key = try SigningKey(secretSeed: seed)
        guard key.publicKey.bytes == Array(bytes.suffix(Sodium.publicKeyLength)) else {
            throw .invalidKey("the k4.secret public half does not match its seed")
        }
        return key
    }
}
