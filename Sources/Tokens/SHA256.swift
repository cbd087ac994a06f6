/// SHA-256 fed in pieces (libsodium's), for checksums of files too big to hold at once. It owns
/// the state libsodium works on.
public final class SHA256 {
    private let state: UnsafeMutableRawPointer
    private var finished = false

    public init() throws(TokenError) {
        state = UnsafeMutableRawPointer.allocate(byteCount: Sodium.sha256StateSize, alignment: 64)
        do {
            try Sodium.sha256Start(state)
        } catch {
            state.deallocate()
            throw error
        }
    }

    deinit { state.deallocate() }

    /// Feeds the bytes of `buffer`.
    public func add(_ buffer: UnsafeRawBufferPointer) {
        precondition(!finished, "a finished digest takes no more bytes")
        Sodium.sha256Add(buffer, to: state)
    }

    /// Feeds `bytes`.
    public func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    /// The digest of everything fed, in lowercase hex; the hasher takes nothing more.
    public func hex() -> String {
        precondition(!finished, "a digest is read once")
        finished = true
        return Sodium.sha256Finish(state).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
    }

    /// The SHA-256 of `bytes`, in lowercase hex.
    public static func hex(of bytes: [UInt8]) throws(TokenError) -> String {
        let hasher = try SHA256()
        hasher.add(bytes)
        return hasher.hex()
    }
}
