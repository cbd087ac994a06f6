import Foundation

/// The POSIX ustar format, the part a backup needs: regular files under short names, written and
/// read as a stream. GNU tar reads what this writes and writes what this reads (`--format=ustar`).
package enum Tar {
    static let blockSize = 512
    /// The first size that 11 octal digits cannot say (8 GiB): from it on, a size is written in
    /// base 256, as GNU tar writes and reads it (the first byte's high bit set, then the size
    /// big-endian), so that a dump of any size makes an archive that restores.
    package static let base256Sizes = 1 << 33

    /// A header for a regular file of `size` bytes, mode 0600.
    package static func header(name: String, size: Int, modified: Date) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: blockSize)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, width: Int) -> String {
            let digits = String(value, radix: 8)
            return String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits
        }
        put(name, at: 0)
        put(octal(0o600, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        if size < base256Sizes {
            put(octal(size, width: 12), at: 124)
        } else {
            block[124] = 0x80
            for index in 0..<8 { block[135 - index] = UInt8(truncatingIfNeeded: size >> (8 * index)) }
        }
        put(octal(max(0, Int(modified.timeIntervalSince1970)), width: 12), at: 136)
        put("        ", at: 148)
        block[156] = UInt8(ascii: "0")
        put("ustar", at: 257)
        put("00", at: 263)
        let sum = block.reduce(0) { $0 + Int($1) }
        put(octal(sum, width: 7), at: 148)
        block[155] = UInt8(ascii: " ")
        return block
    }

    /// What a header says, or why it is not one.
    package enum Header: Equatable {
        case file(name: String, size: Int)
        case directory
        case end
    }

    package static func parse(_ block: [UInt8]) throws(BackupError) -> Header {
        if block.allSatisfy({ $0 == 0 }) { return .end }
        guard block[257..<262].elementsEqual("ustar".utf8) else { throw .foreign("not a tar archive") }
        guard let stored = number(block[148..<156]) else { throw .altered("a tar header's checksum is unreadable") }
        let sum = block.enumerated().reduce(0) { total, item in total + ((148..<156).contains(item.offset) ? 32 : Int(item.element)) }
        guard sum == stored else { throw .altered("a tar header's checksum does not match") }
        switch block[156] {
        case UInt8(ascii: "0"), 0:
            guard let size = block[124] == 0x80 ? base256(block[125..<136]) : number(block[124..<136]) else {
                throw .altered("a tar header's size is unreadable")
            }
            guard let name = text(block[0..<100]), let prefix = text(block[345..<500]) else {
                throw .foreign("a member's name is not UTF-8")
            }
            return .file(name: prefix.isEmpty ? name : prefix + "/" + name, size: size)
        case UInt8(ascii: "5"):
            return .directory
        default:
            throw .foreign("the archive holds something other than files")
        }
    }

    /// The bytes up to the first NUL, as text; nil unless they are UTF-8.
    private static func text(_ field: ArraySlice<UInt8>) -> String? {
        String(validating: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An octal field: digits, padded with spaces or NULs.
    private static func number(_ field: ArraySlice<UInt8>) -> Int? {
        let digits = field.drop { $0 == UInt8(ascii: " ") }.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }
        guard !digits.isEmpty, digits.count <= 12 else { return nil }
        return digits.reduce(0) { $0 * 8 + Int($1 - UInt8(ascii: "0")) }
    }

    /// A base-256 field (after its marker byte): big-endian, within `Int`.
    private static func base256(_ field: ArraySlice<UInt8>) -> Int? {
        guard field.dropLast(8).allSatisfy({ $0 == 0 }), let first = field.suffix(8).first, first < 0x80 else { return nil }
        return field.suffix(8).reduce(0) { $0 << 8 | Int($1) }
    }

    /// Zero bytes that pad `size` to whole blocks.
    static func padding(after size: Int) -> Int {
        (blockSize - size % blockSize) % blockSize
    }
}
