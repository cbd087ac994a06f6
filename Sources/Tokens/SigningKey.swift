/// An Ed25519 key pair that signs tokens. The seed is the secret; the rest is derived.
/// Copies share one `SecretBytes`, wiped when the last copy goes.
public struct SigningKey: Sendable {
    /// The 64-byte libsodium secret key (seed followed by the public key).
    let secretKey: SecretBytes
    /// The matching public key.
    public let publicKey: PublicKey

    /// Derives the key pair from a 32-byte seed (the caller owns and wipes `seed`).
    public init(seed: [UInt8]) throws(TokenError) {
        try self.init(secretSeed: SecretBytes(count: seed.count) { $0.copyBytes(from: seed) })
    }

    /// Derives the key pair from a seed held as a secret.
    init(secretSeed: SecretBytes) throws(TokenError) {
        let pair = try Sodium.keyPair(seed: secretSeed)
        secretKey = pair.secretKey
        publicKey = try PublicKey(bytes: pair.publicKey)
    }

    /// A new random key.
    public static func generate() throws(TokenError) -> SigningKey {
        try SigningKey(secretSeed: Sodium.randomSecret(Sodium.seedLength))
    }

    /// Signs `message` (Ed25519, detached signature of 64 bytes).
    func sign(_ message: [UInt8]) throws(TokenError) -> [UInt8] {
        try Sodium.sign(message, secretKey: secretKey)
    }
}

/// An Ed25519 public key that verifies tokens.
public struct PublicKey: Sendable, Hashable {
    /// The 32 raw bytes.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) throws(TokenError) {
        guard bytes.count == Sodium.publicKeyLength else {
            throw .invalidKey("an Ed25519 public key is \(Sodium.publicKeyLength) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// Whether `signature` signs `message` under this key.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        Sodium.verify(signature: signature, message: message, publicKey: bytes)
    }
}
