import Foundation

/// What a connection token says: whose it is, when it was issued and expires, its id, and the event.
public struct ConnectionClaims: Sendable, Equatable {
    /// The profile id of the token's owner (`sub`).
    public let subject: String
    /// When the token was issued (`iat`).
    public let issuedAt: Date
    /// When the token stops being redeemable (`exp`).
    public let expiresAt: Date
    /// The token's unique id (`jti`).
    public let tokenId: String
    /// The event the token was issued for (`evt`), if any.
    public let eventId: String?

    public init(subject: String, issuedAt: Date, expiresAt: Date, tokenId: String, eventId: String? = nil) {
        self.subject = subject
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.tokenId = tokenId
        self.eventId = eventId
    }

    /// Dates in claims are RFC 3339 / ISO 8601 strings, as PASETO registers them, to the second:
    /// `YYYY-MM-DDTHH:MM:SSZ`, written by hand (Foundation's formatter costs more than signing).
    package static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // The civil date of a day count (Howard Hinnant's civil_from_days).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3_600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }

    package static func parseDate(_ text: String) -> Date? {
        utcSeconds(text) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// The shape `format` writes, `YYYY-MM-DDTHH:MM:SSZ`, read without Foundation's date parser
    /// (which costs more than the signature check); nil for any other shape.
    private static func utcSeconds(_ text: String) -> Date? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
                  bytes[16] == 0x3A, bytes[19] == 0x5A else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 0x30
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
                  let minute = number(14..<16), let second = number(17..<19),
                  (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
            // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
        } ?? nil
    }

    /// The JSON payload: `{"sub":…,"iat":…,"exp":…,"jti":…[,"evt":…]}`.
    package func json() -> [UInt8] {
        var object: [String: String] = [
            "sub": subject, "iat": Self.format(issuedAt), "exp": Self.format(expiresAt), "jti": tokenId,
        ]
        object["evt"] = eventId
        // Sorted keys make the payload reproducible for the same claims.
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Array(data)
    }

    /// Parses and checks the JSON payload of a token.
    init(json bytes: [UInt8]) throws(TokenError) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw .invalidClaims("the payload is not a JSON object")
        }
        func string(_ key: String) throws(TokenError) -> String {
            guard let value = object[key] as? String, !value.isEmpty, value.utf8.count <= 128 else {
                throw .invalidClaims("'\(key)' must be a non-empty string")
            }
            return value
        }
        func date(_ key: String) throws(TokenError) -> Date {
            guard let value = Self.parseDate(try string(key)) else {
                throw .invalidClaims("'\(key)' must be an RFC 3339 date")
            }
            return value
        }
        subject = try string("sub")
        tokenId = try string("jti")
        issuedAt = try date("iat")
        expiresAt = try date("exp")
        eventId = object["evt"] == nil ? nil : try string("evt")
        guard expiresAt > issuedAt else { throw .invalidClaims("'exp' must be after 'iat'") }
    }
}
