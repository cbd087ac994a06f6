/// A secret for pseudonyms that only the server can compute: keyed BLAKE2b under a key derived
/// from the signing key's seed and a purpose. Someone who knows a profile id cannot work out its
/// pseudonym without this key, and keys of different purposes are unrelated.
///
/// Pseudonyms follow the signing key: a server given a new `CONSTELLATION_SIGNING_KEY` computes new ones.
public struct PseudonymKey: Sendable {
    private let key: SecretBytes

    /// The key for `purpose` (e.g. `constellation:event-pseudonym:v1`), derived from `signingKey`.
    public init(purpose: String, signingKey: SigningKey) throws(TokenError) {
        let seed = try SecretBytes(count: Sodium.seedLength) { (seed: UnsafeMutableRawBufferPointer) throws(TokenError) in
            signingKey.secretKey.withUnsafeBytes { secret in
                seed.copyMemory(from: UnsafeRawBufferPointer(rebasing: secret.prefix(Sodium.seedLength)))
            }
        }
        var derived = try Sodium.blake2b(Array(purpose.utf8), length: 32, key: seed)
        defer { derived.withUnsafeMutableBytes(Sodium.wipe) }
        key = try SecretBytes(count: derived.count) { (target: UnsafeMutableRawBufferPointer) throws(TokenError) in
            derived.withUnsafeBytes { target.copyMemory(from: $0) }
        }
    }

    /// BLAKE2b of `message` under this key, `length` bytes (16…64).
    public func digest(_ message: [UInt8], length: Int) throws(TokenError) -> [UInt8] {
        try Sodium.blake2b(message, length: length, key: key)
    }
}
