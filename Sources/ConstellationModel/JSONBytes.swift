import Foundation

/// JSON written straight into bytes, value by value, exactly as `JSONEncoder.constellation` writes
/// the same values: numbers as Swift prints them (without a trailing `.0`), strings escaped as the
/// encoder escapes them (slashes left alone), dates in ISO 8601 to the whole second, UUIDs in upper
/// case. For documents too large for the encoder to be quick (an event's network: 100,000 edges
/// take it most of a second); the caller writes keys in sorted order.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Raw JSON punctuation or a key already quoted: `{"edges":[`.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A finite number (the encoder refuses others, and so does this).
    mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not valid JSON"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    mutating func integer(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    mutating func uuid(_ value: UUID) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: value.uuidString.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func date(_ value: Date) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: ISO8601Seconds.string(value).utf8)
        bytes.append(UInt8(ascii: "\""))
    }
}

/// RFC 3339 in UTC to the whole second (`2026-11-21T21:33:47Z`), as `JSONEncoder`'s `.iso8601` and
/// `Date.ISO8601FormatStyle()` write it (the fraction dropped, not rounded), without a formatter
/// for the dates events have.
public enum ISO8601Seconds {
    public static func string(_ date: Date) -> String {
        let total = date.timeIntervalSince1970.rounded(.down)
        // Years 1600 to 9999 only: Foundation writes earlier dates in the Julian calendar, and
        // later ones with more digits. It writes those.
        guard total >= -11_676_096_000, total < 253_402_300_800 else { return date.formatted(Date.ISO8601FormatStyle()) }
        let seconds = Int(total)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = civil(fromDays: days)
        let time = seconds - days * 86_400
        var out = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, at index: Int, digits: Int) {
            var value = value
            for offset in stride(from: digits - 1, through: 0, by: -1) {
                out[index + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 0, digits: 4)
        out[4] = UInt8(ascii: "-")
        put(month, at: 5, digits: 2)
        out[7] = UInt8(ascii: "-")
        put(day, at: 8, digits: 2)
        out[10] = UInt8(ascii: "T")
        put(time / 3_600, at: 11, digits: 2)
        out[13] = UInt8(ascii: ":")
        put(time / 60 % 60, at: 14, digits: 2)
        out[16] = UInt8(ascii: ":")
        put(time % 60, at: 17, digits: 2)
        out[19] = UInt8(ascii: "Z")
        return String(decoding: out, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
