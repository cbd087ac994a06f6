import Foundation

/// Event join codes: short and easy to type (`K7MX-3QPA`), drawn from libsodium's random bytes
/// over an alphabet without the look-alikes 0, O, 1, I and L. Typed codes are compared without
/// regard to case, spaces or the hyphen. The server keeps only `hash(_:eventId:)`.
public enum JoinCode {
    /// 23 letters and 8 digits: 31 symbols, so 8 of them carry about 39.6 bits.
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789".utf8)
    public static let length = 8

    /// A new random code, shown as `XXXX-XXXX`.
    public static func generate() throws(TokenError) -> String {
        var symbols: [UInt8] = []
        // Rejection sampling: bytes of 248 and up would favour the first symbols.
        let limit = UInt8(256 / alphabet.count * alphabet.count)
        while symbols.count < length {
            for byte in try Sodium.randomBytes(2 * length) where byte < limit && symbols.count < length {
                symbols.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: symbols[0..<4], as: UTF8.self) + "-" + String(decoding: symbols[4...], as: UTF8.self)
    }

    /// A new code for event `eventId` and the hash to store.
    public static func generate(eventId: UUID) throws(TokenError) -> (code: String, hash: [UInt8]) {
        let code = try generate()
        guard let hash = try hash(code, eventId: eventId) else { preconditionFailure("a generated join code is well-formed") }
        return (code, hash)
    }

    /// The code's 8 symbols in upper case, without hyphens or spaces; nil if it cannot be a code.
    public static func normalize(_ text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        let symbols = text.uppercased().utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: " ") }
        guard symbols.count == length, symbols.allSatisfy(alphabet.contains) else { return nil }
        return String(decoding: symbols, as: UTF8.self)
    }

    /// What the server stores and compares for `code` at event `eventId`: BLAKE2b-256 of the
    /// normalized code, salted with the event's id. Nil when `code` is not a code at all.
    public static func hash(_ code: String, eventId: UUID) throws(TokenError) -> [UInt8]? {
        guard let symbols = normalize(code) else { return nil }
        return try Sodium.blake2b(Array("constellation:join:v1:\(eventId.uuidString.lowercased()):\(symbols)".utf8), length: 32)
    }
}
