import Foundation

/// JSON written straight into bytes, value by value, exactly as `JSONEncoder.constellation` writes
/// the same values: numbers as Swift prints them (without a trailing `.0`), strings escaped as the
/// encoder escapes them (slashes left alone), dates in ISO 8601 to the whole second, UUIDs in upper
/// case. For documents too large for the encoder to be quick (an event's network: 100,000 edges
/// take it most of a second); the caller writes keys in sorted order. The project's one JSON string
/// escaper: the graph documents (`LayoutDocument`) quote their strings with it too.
package struct JSONBytes {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        var out = JSONBytes(capacity: text.utf8.count + 2)
        out.string(text)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Raw JSON punctuation or a key already quoted: `{"edges":[`.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Whether the next member of the object being written needs a comma before it.
    private var afterMember = false

    /// `{`: an object whose members `member(_:)` starts, each after the comma its place needs.
    mutating func openObject() {
        raw("{")
        afterMember = false
    }

    /// `"name":` (a key that needs no escaping), after a comma unless it is the object's first.
    mutating func member(_ name: StaticString) {
        raw(afterMember ? ",\"" : "\"")
        raw(name)
        raw("\":")
        afterMember = true
    }

    /// `}`: the object ends, a member of what holds it.
    mutating func closeObject() {
        raw("}")
        afterMember = true
    }

    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole.
            var start = 0
            for index in utf8.indices where utf8[index] < 0x20 || utf8[index] == UInt8(ascii: "\"") || utf8[index] == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(utf8[index])
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
        case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
        case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes += [
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)],
            ]
        }
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
        if let (day, time) = ISO8601Seconds.split(value) {
            // Dates come in runs of the same day (an event's edges, in time order): its text is kept.
            if lastDay?.number != day { lastDay = (day, ISO8601Seconds.text(ofDay: day)) }
            bytes.append(contentsOf: lastDay!.text)
            ISO8601Seconds.append(time: time, to: &bytes)
        } else {
            bytes.append(contentsOf: value.formatted(Date.ISO8601FormatStyle()).utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private var lastDay: (number: Int, text: [UInt8])?
}

/// RFC 3339 in UTC to the whole second (`2026-11-21T21:33:47Z`), the fraction dropped, not rounded:
/// how the API writes every date, without a formatter.
public enum ISO8601Seconds {
    public static func string(_ date: Date) -> String {
        guard let (day, time) = split(date) else { return date.formatted(Date.ISO8601FormatStyle()) }
        var out = text(ofDay: day)
        append(time: time, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The day (since 1970-01-01) and the second in it of a date this writes: years 0000 to 9999,
    /// in the proleptic Gregorian calendar as PostgreSQL and `RFC3339` read them (Foundation writes
    /// years before 1583 in the Julian calendar, and those past 9999 with more digits).
    static func split(_ date: Date) -> (day: Int, time: Int)? {
        let total = date.timeIntervalSince1970.rounded(.down)
        guard total >= -62_167_219_200, total < 253_402_300_800 else { return nil }
        let seconds = Int(total)
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (day, seconds - day * 86_400)
    }

    /// `yyyy-mm-ddT` of a day since 1970-01-01.
    static func text(ofDay day: Int) -> [UInt8] {
        let (year, month, date) = civil(fromDays: day)
        var out: [UInt8] = []
        out.reserveCapacity(20)
        for digit in [year / 1000, year / 100 % 10, year / 10 % 10, year % 10] { out.append(UInt8(ascii: "0") + UInt8(digit)) }
        out.append(UInt8(ascii: "-"))
        twoDigits(month, to: &out)
        out.append(UInt8(ascii: "-"))
        twoDigits(date, to: &out)
        out.append(UInt8(ascii: "T"))
        return out
    }

    /// `hh:mm:ssZ` of a second in a day.
    static func append(time: Int, to out: inout [UInt8]) {
        appendClock(time, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `2026-11-21T21:33:47.123456Z`: to the nearest microsecond (PostgreSQL's precision); for a
    /// bind parameter, without a formatter.
    public static func microseconds(_ date: Date) -> String {
        let total = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard abs(total) < 1e18 else { return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
        let micros = Int64(total)
        let whole = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        guard let (day, time) = split(Date(timeIntervalSince1970: Double(whole))) else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        var out = text(ofDay: day)
        appendClock(time, to: &out)
        out.append(UInt8(ascii: "."))
        var fraction = micros - whole * 1_000_000
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 6)
        for index in stride(from: 5, through: 0, by: -1) {
            digits[index] += UInt8(fraction % 10)
            fraction /= 10
        }
        out += digits
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendClock(_ time: Int, to out: inout [UInt8]) {
        twoDigits(time / 3_600, to: &out)
        out.append(UInt8(ascii: ":"))
        twoDigits(time / 60 % 60, to: &out)
        out.append(UInt8(ascii: ":"))
        twoDigits(time % 60, to: &out)
    }

    private static func twoDigits(_ value: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "0") + UInt8(value / 10))
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
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
