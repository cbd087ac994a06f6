import Foundation

/// The API's dates: RFC 3339 date-times (`2026-11-26T09:30:00Z`, `2026-11-26T10:30:00.250+01:00`),
/// read the same way in every field and query. The calendar is the proleptic Gregorian one, as
/// PostgreSQL's; a leap second (`23:59:60`) is refused, as PostgreSQL and Foundation differ on it.
public enum RFC3339 {
    /// The instants any date field accepts: from 1970-01-01T00:00:00Z up to the end of year 9999.
    /// Fields narrow it further (an event's dates, a scan's time).
    public static let accepted = Date(timeIntervalSince1970: 0)..<Date(timeIntervalSince1970: 253_402_300_800)

    /// How a refusal describes what is accepted.
    public static let expected = "an RFC 3339 date-time such as 2026-11-26T09:30:00Z, from 1970 to 9999, without a leap second"

    /// `text` as an instant, or nil if it is not `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` naming a
    /// real day and a second from 00 to 59.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        func byte(_ index: Int, is characters: String) -> Bool {
            index < bytes.count && characters.utf8.contains(bytes[index])
        }
        guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"), let day = number(8..<10),
            byte(10, is: "Tt"), let hour = number(11..<13), byte(13, is: ":"), let minute = number(14..<16), byte(16, is: ":"),
            let second = number(17..<19)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var index = 19
        var fraction = 0.0
        if byte(index, is: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > start, let digits = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
            fraction = digits
        }
        var offset = 0
        if byte(index, is: "Zz") {
            index += 1
        } else if byte(index, is: "+-"), let hours = number(index + 1..<index + 3), byte(index + 3, is: ":"),
            let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60
        {
            offset = (bytes[index] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3_600 + minutes * 60)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// A date field whose text is not a date the API accepts (see `RFC3339`).
public struct InvalidDate: Error, Sendable, Equatable {
    /// The field, as `startsAt` or `events[0].startsAt`.
    public let field: String
    /// What the field accepts.
    public let expected: String
    /// The dates it accepts, when it is the date and not its form that is wrong.
    public let within: Range<Date>?

    public init(field: String, expected: String = RFC3339.expected, within: Range<Date>? = nil) {
        self.field = field
        self.expected = expected
        self.within = within
    }
}
