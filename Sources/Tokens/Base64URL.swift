/// Unpadded base64url (RFC 4648 §5) as PASETO and PASERK require: decoding is strict,
/// refusing padding, foreign characters and non-zero trailing bits.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 { out.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)]) }
            if let b2 { out.append(alphabet[Int(b2 & 0x3F)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes canonical unpadded base64url, or throws `TokenError.badEncoding`.
    public static func decode(_ text: some StringProtocol) throws(TokenError) -> [UInt8] {
        try decode(bytes: text.utf8)
    }

    /// Decodes canonical unpadded base64url given as its UTF-8 bytes, or throws `TokenError.badEncoding`.
    public static func decode(bytes chars: some Collection<UInt8>) throws(TokenError) -> [UInt8] {
        guard chars.count % 4 != 1 else { throw .badEncoding }
        var out = [UInt8]()
        out.reserveCapacity(chars.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for char in chars {
            let value = reverse[Int(char)]
            guard value != 0xFF else { throw .badEncoding }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, or two encodings would decode to the same bytes.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { throw .badEncoding }
        return out
    }
}
