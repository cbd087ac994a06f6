internal import CSodium

/// The one place that calls libsodium. Every length is checked before a C call,
/// every return code becomes a typed error at once, and no pointer leaves a closure.
enum Sodium {
    static let seedLength = Int(crypto_sign_SEEDBYTES)
    static let publicKeyLength = Int(crypto_sign_PUBLICKEYBYTES)
    static let secretKeyLength = Int(crypto_sign_SECRETKEYBYTES)
    static let signatureLength = Int(crypto_sign_BYTES)

    /// libsodium must be initialised once before use; `sodium_init` is idempotent and thread-safe.
    private static let initialised: Bool = sodium_init() >= 0

    static func ensureInitialised() throws(TokenError) {
        guard initialised else { throw .cryptoFailure("sodium_init failed") }
    }

    /// Derives an Ed25519 key pair from a 32-byte seed; the secret key is libsodium's 64 bytes
    /// (seed followed by public key).
    static func keyPair(seed: SecretBytes) throws(TokenError) -> (publicKey: [UInt8], secretKey: SecretBytes) {
        try ensureInitialised()
        guard seed.count == seedLength else { throw .invalidKey("an Ed25519 seed is \(seedLength) bytes") }
        var publicKey = [UInt8](repeating: 0, count: publicKeyLength)
        let secretKey = try SecretBytes(count: secretKeyLength) { sk throws(TokenError) in
            let rc = publicKey.withUnsafeMutableBufferPointer { pk in
                seed.withUnsafeBytes { s in
                    crypto_sign_seed_keypair(pk.baseAddress!, bytes(sk), bytes(s))
                }
            }
            guard rc == 0 else { throw .cryptoFailure("crypto_sign_seed_keypair failed") }
        }
        return (publicKey, secretKey)
    }

    /// A detached Ed25519 signature of `message` with a 64-byte libsodium secret key.
    static func sign(_ message: [UInt8], secretKey: SecretBytes) throws(TokenError) -> [UInt8] {
        try ensureInitialised()
        guard secretKey.count == secretKeyLength else { throw .invalidKey("an Ed25519 secret key is \(secretKeyLength) bytes") }
        var signature = [UInt8](repeating: 0, count: signatureLength)
        let rc = signature.withUnsafeMutableBufferPointer { sig in
            withNonNullPointer(message) { m, count in
                secretKey.withUnsafeBytes { sk in
                    crypto_sign_detached(sig.baseAddress!, nil, m, UInt64(count), bytes(sk))
                }
            }
        }
        guard rc == 0 else { throw .cryptoFailure("crypto_sign_detached failed") }
        return signature
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` under `publicKey`.
    /// Wrong lengths are rejected before libsodium sees them.
    static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard initialised, signature.count == signatureLength, publicKey.count == publicKeyLength else { return false }
        let rc = signature.withUnsafeBufferPointer { sig in
            withNonNullPointer(message) { m, count in
                publicKey.withUnsafeBufferPointer { pk in
                    crypto_sign_verify_detached(sig.baseAddress!, m, UInt64(count), pk.baseAddress!)
                }
            }
        }
        return rc == 0
    }

    /// BLAKE2b (libsodium `crypto_generichash`) of `input`, `length` bytes long (16…64).
    static func blake2b(_ input: [UInt8], length: Int) throws(TokenError) -> [UInt8] {
        try ensureInitialised()
        guard length >= Int(crypto_generichash_BYTES_MIN), length <= Int(crypto_generichash_BYTES_MAX) else {
            throw .cryptoFailure("BLAKE2b output length out of range")
        }
        var out = [UInt8](repeating: 0, count: length)
        let rc = out.withUnsafeMutableBufferPointer { o in
            withNonNullPointer(input) { i, count in
                crypto_generichash(o.baseAddress!, length, i, UInt64(count), nil, 0)
            }
        }
        guard rc == 0 else { throw .cryptoFailure("crypto_generichash failed") }
        return out
    }

    /// Keyed BLAKE2b (libsodium `crypto_generichash` with a key of 16…64 bytes), a MAC or a PRF.
    static func blake2b(_ input: [UInt8], length: Int, key: SecretBytes) throws(TokenError) -> [UInt8] {
        try ensureInitialised()
        guard length >= Int(crypto_generichash_BYTES_MIN), length <= Int(crypto_generichash_BYTES_MAX),
            key.count >= Int(crypto_generichash_KEYBYTES_MIN), key.count <= Int(crypto_generichash_KEYBYTES_MAX)
        else { throw .cryptoFailure("BLAKE2b output or key length out of range") }
        var out = [UInt8](repeating: 0, count: length)
        let rc = key.withUnsafeBytes { k in
            out.withUnsafeMutableBufferPointer { o in
                withNonNullPointer(input) { i, count in
                    crypto_generichash(o.baseAddress!, length, i, UInt64(count), bytes(k), k.count)
                }
            }
        }
        guard rc == 0 else { throw .cryptoFailure("crypto_generichash failed") }
        return out
    }

    /// The size of a SHA-256 state that `sha256Start`, `sha256Add` and `sha256Finish` work on.
    static let sha256StateSize = crypto_hash_sha256_statebytes()

    /// Starts a SHA-256 (libsodium `crypto_hash_sha256`) in `state`, `sha256StateSize` bytes.
    static func sha256Start(_ state: UnsafeMutableRawPointer) throws(TokenError) {
        try ensureInitialised()
        guard crypto_hash_sha256_init(state.assumingMemoryBound(to: crypto_hash_sha256_state.self)) == 0 else {
            throw .cryptoFailure("crypto_hash_sha256_init failed")
        }
    }

    /// Feeds `input` to the SHA-256 in `state`.
    static func sha256Add(_ input: UnsafeRawBufferPointer, to state: UnsafeMutableRawPointer) {
        guard let base = input.baseAddress, input.count > 0 else { return }
        _ = crypto_hash_sha256_update(
            state.assumingMemoryBound(to: crypto_hash_sha256_state.self), bytes(UnsafeRawBufferPointer(start: base, count: input.count)),
            UInt64(input.count))
    }

    /// The 32-byte digest of what `state` was fed.
    static func sha256Finish(_ state: UnsafeMutableRawPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        digest.withUnsafeMutableBufferPointer { out in
            _ = crypto_hash_sha256_final(state.assumingMemoryBound(to: crypto_hash_sha256_state.self), out.baseAddress!)
        }
        return digest
    }

    /// Cryptographically secure random bytes.
    static func randomBytes(_ count: Int) throws(TokenError) -> [UInt8] {
        try ensureInitialised()
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return out
    }

    /// Cryptographically secure random secret bytes (a seed), in memory of their own.
    static func randomSecret(_ count: Int) throws(TokenError) -> SecretBytes {
        try ensureInitialised()
        return try SecretBytes(count: count) { randombytes_buf($0.baseAddress!, $0.count) }
    }

    /// Overwrites secret bytes in place so they do not linger in memory.
    static func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
        if let base = bytes.baseAddress { sodium_memzero(base, bytes.count) }
    }

    /// The bytes of a non-empty raw buffer, as libsodium's `unsigned char *` takes them.
    private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
        buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    }

    private static func bytes(_ buffer: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<UInt8> {
        buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    }

    /// libsodium takes non-null pointers even for empty input; an empty array may have none.
    private static func withNonNullPointer<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { return body(base, buffer.count) }
            var placeholder: UInt8 = 0
            return withUnsafePointer(to: &placeholder) { body($0, 0) }
        }
    }
}
