/// Codes people type: random symbols from libsodium over an alphabet without the look-alikes
/// 0, O, 1, I and L, shown in hyphenated groups and compared without regard to case, spaces or
/// hyphens. Join codes, device link codes and recovery codes are all of this kind.
struct TypedCode: Sendable {
    /// 23 letters and 8 digits: 31 symbols, about 4.95 bits each.
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789".utf8)

    /// How many symbols a code has.
    let length: Int
    /// How many symbols each hyphen-separated group shows.
    let group: Int

    /// A new random code, shown in groups (`K7MX-3QPA`).
    func generate() throws(TokenError) -> String {
        try code { _ throws(TokenError) in try Sodium.randomBytes(2 * length) }
    }

    /// The code `bytes` make, shown in groups: uniform when each block of bytes is (random, or a
    /// keyed hash's output). `bytes` gives a block of uniform bytes for each round (0, 1, …).
    func code(from bytes: (_ round: Int) throws(TokenError) -> [UInt8]) throws(TokenError) -> String {
        var symbols: [UInt8] = []
        // Rejection sampling: bytes of 248 and up would favour the first symbols.
        let limit = UInt8(256 / Self.alphabet.count * Self.alphabet.count)
        var round = 0
        while symbols.count < length {
            for byte in try bytes(round) where byte < limit && symbols.count < length {
                symbols.append(Self.alphabet[Int(byte) % Self.alphabet.count])
            }
            round += 1
        }
        return stride(from: 0, to: length, by: group)
            .map { String(decoding: symbols[$0..<min($0 + group, length)], as: UTF8.self) }
            .joined(separator: "-")
    }

    /// The code's symbols in upper case, without hyphens or spaces; nil if `text` cannot be a code.
    func normalize(_ text: String) -> String? {
        guard text.utf8.count <= 4 * length + 16 else { return nil }
        let symbols = text.uppercased().utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: " ") }
        guard symbols.count == length, symbols.allSatisfy(Self.alphabet.contains) else { return nil }
        return String(decoding: symbols, as: UTF8.self)
    }

    /// BLAKE2b-256 of the normalized code under `domain` (which names the code's purpose and any
    /// salt): what the server stores and compares. Nil when `text` cannot be a code. A fast hash
    /// is enough: these codes are random, and short-lived or long.
    func hash(_ text: String, domain: String) throws(TokenError) -> [UInt8]? {
        guard let symbols = normalize(text) else { return nil }
        return try Sodium.blake2b(Array("\(domain):\(symbols)".utf8), length: 32)
    }
}
