/// API keys: 256 random bits shown to their owner once; the server keeps only a hash.
/// A fast hash is right here: the key has full entropy, so there is nothing to brute-force.
public enum APIKey {
    static let prefix = "cst_"

    /// A new key and the hash to store.
    public static func generate() throws(TokenError) -> (key: String, hash: [UInt8]) {
        let key = prefix + Base64URL.encode(try Sodium.randomBytes(32))
        return (key, try hash(key))
    }

    /// The hash under which a key is stored and looked up: unkeyed BLAKE2b-256 of its UTF-8 text.
    public static func hash(_ key: String) throws(TokenError) -> [UInt8] {
        try Sodium.blake2b(Array(key.utf8), length: 32)
    }

    /// Whether `text` has the shape of a key (so garbage is refused before any lookup).
    public static func isWellFormed(_ text: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == prefix.utf8.count + 43
            && (try? Base64URL.decode(text.dropFirst(prefix.count)))?.count == 32
    }
}
