import ConstellationModel
import Foundation

/// One result row, copied out of libpq in text format, with typed accessors by column name.
package struct Row: Sendable {
    let columns: [String: Int]
    let values: [String?]

    package func optionalString(_ column: String) throws(PostgresError) -> String? {
        guard let index = columns[column] else {
            throw PostgresError(.decoding, message: "no column '\(column)' in the result")
        }
        return values[index]
    }

    package func string(_ column: String) throws(PostgresError) -> String {
        guard let value = try optionalString(column) else {
            throw PostgresError(.decoding, message: "column '\(column)' is null")
        }
        return value
    }

    package func int(_ column: String) throws(PostgresError) -> Int64 {
        guard let value = Int64(try string(column)) else { throw decoding(column, as: "an integer") }
        return value
    }

    /// An integer, or nil for NULL.
    package func optionalInt(_ column: String) throws(PostgresError) -> Int? {
        try optionalString(column) == nil ? nil : Int(try int(column))
    }

    package func bool(_ column: String) throws(PostgresError) -> Bool {
        switch try string(column) {
        case "t": return true
        case "f": return false
        default: throw decoding(column, as: "a boolean")
        }
    }

    package func uuid(_ column: String) throws(PostgresError) -> UUID {
        guard let value = PostgresUUID.parse(try string(column)) else { throw decoding(column, as: "a UUID") }
        return value
    }

    package func optionalUUID(_ column: String) throws(PostgresError) -> UUID? {
        guard let text = try optionalString(column) else { return nil }
        guard let value = PostgresUUID.parse(text) else { throw decoding(column, as: "a UUID") }
        return value
    }

    /// A `timestamptz` in the session's UTC time zone (`2026-11-21 21:33:47.123456+00`).
    package func date(_ column: String) throws(PostgresError) -> Date {
        guard let value = PostgresTimestamp.parse(try string(column)) else { throw decoding(column, as: "a timestamp") }
        return value
    }

    /// A `timestamptz` as `date` reads it, or nil for NULL.
    package func optionalDate(_ column: String) throws(PostgresError) -> Date? {
        try optionalString(column) == nil ? nil : try date(column)
    }

    private func decoding(_ column: String, as type: String) -> PostgresError {
        PostgresError(.decoding, message: "column '\(column)' is not \(type)")
    }
}

/// Text-format UUIDs as PostgreSQL writes them: 8-4-4-4-12 hexadecimal digits. Read by hand:
/// Foundation's `UUID(uuidString:)` goes through `sscanf`, which was 2-6% of a busy server's CPU
/// (an event's pairs, two UUIDs each, read for every new picture).
package enum PostgresUUID {
    /// The UUID, or nil for anything but 36 characters with dashes at 8, 13, 18 and 23 and hex
    /// digits (either case) elsewhere.
    package static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &value) { out -> Bool in
                var index = 0
                for byteIndex in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard bytes[index] == 0x2D else { return false }
                        index += 1
                    }
                    guard let high = digit(bytes[index]), let low = digit(bytes[index + 1]) else { return false }
                    out[byteIndex] = high << 4 | low
                    index += 2
                }
                return true
            }
            return parsed ? UUID(uuid: value) : nil
        }
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        case 0x41...0x46: byte - 0x41 + 10
        default: nil
        }
    }
}

/// Text-format timestamps: sessions run in UTC, so the offset is always `+00`.
enum PostgresTimestamp {
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 22, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes.suffix(3) == Array("+00".utf8) else {
            return nil
        }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var fraction = 0.0
        let end = bytes.count - 3
        if end > 19 {
            guard bytes[19] == 0x2E, let digits = number(20..<end) else { return nil }
            fraction = Double(digits) / pow(10, Double(end - 20))
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A bind parameter for a `timestamptz`.
    static func format(_ date: Date) -> String {
        ISO8601Seconds.microseconds(date)
    }
}
