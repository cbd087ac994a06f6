/// PASETO's Pre-Authentication Encoding: the unambiguous byte string that is signed.
enum PreAuthenticationEncoding {
    static func encode(_ pieces: [[UInt8]]) -> [UInt8] {
        var out = littleEndian64(UInt64(pieces.count))
        for piece in pieces {
            out += littleEndian64(UInt64(piece.count))
            out += piece
        }
        return out
    }

    /// LE64 with the most significant bit cleared, as the specification requires.
    private static func littleEndian64(_ value: UInt64) -> [UInt8] {
        let cleared = value & 0x7FFF_FFFF_FFFF_FFFF
        return (0..<8).map { UInt8(truncatingIfNeeded: cleared >> (8 * UInt64($0))) }
    }
}
