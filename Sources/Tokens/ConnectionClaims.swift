import Foundation

/// What a connection token says: whose it is, when it was issued and expires, its id, and the event.
/// The payload's two shapes (the compact one tokens are issued with, and the long one they replaced,
/// which still verifies) are described once, in `docs/tokens-and-keys.md`.
public struct ConnectionClaims: Sendable, Equatable {
    /// The profile id of the token's owner (`s`).
    public let subject: UUID
    /// When the token was issued (`i`), to the second.
    public let issuedAt: Date
    /// When the token stops being redeemable (`x`).
    public let expiresAt: Date
    /// The token's unique id (`j`).
    public let tokenId: String
    /// The event the token was issued for (`e`), if any.
    public let eventId: UUID?
    /// Whether it is a code shown on a screen for minutes or one printed on a badge.
    public let kind: Kind

    /// What a token was made for; a badge lives until its event ends and may be used more often.
    public enum Kind: Sendable, Equatable {
        case shown
        case badge
    }

    public init(subject: UUID, issuedAt: Date, expiresAt: Date, tokenId: String, eventId: UUID? = nil, kind: Kind = .shown) {
        self.subject = subject
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.tokenId = tokenId
        self.eventId = eventId
        self.kind = kind
    }

    /// The compact JSON payload, written by hand: every value is base64url or an integer, so nothing needs escaping.
    package func json() -> [UInt8] {
        var text = "{\"s\":\"\(SignedTokens.compact(subject))\",\"i\":\(Self.seconds(issuedAt)),\"x\":\(Self.seconds(expiresAt))"
        text += ",\"j\":\"\(tokenId)\""
        if let eventId { text += ",\"e\":\"\(SignedTokens.compact(eventId))\"" }
        return Array((text + "}").utf8)
    }

    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// Parses and checks the JSON payload of a token, compact or long: which of `s` and `sub` it
    /// holds tells the shape. A key of either shape holding the wrong kind of value is refused.
    init(json bytes: [UInt8]) throws(TokenError) {
        guard let payload = FlatJSONObject(bytes) else { throw .invalidClaims("the payload is not a JSON object of a token's claims") }
        switch (try Self.optionalString(payload, "s"), try Self.optionalString(payload, "sub")) {
        case (let s?, nil): try self.init(compact: payload, subject: s)
        case (nil, let sub?): try self.init(long: payload, subject: sub)
        default: throw .invalidClaims("the payload needs one of 's' and 'sub'")
        }
        guard !tokenId.isEmpty, tokenId.utf8.count <= 128 else { throw .invalidClaims("the token id must be 1 to 128 characters") }
        guard expiresAt > issuedAt else { throw .invalidClaims("the expiry must be after the issue time") }
    }

    /// The string under `key`; nil when it is absent or null; refused when it is another kind of value.
    private static func optionalString(_ payload: FlatJSONObject, _ key: String) throws(TokenError) -> String? {
        if payload.isAbsentOrNull(key) { return nil }
        guard let text = payload.string(key) else { throw .invalidClaims("'\(key)' must be a string") }
        return text
    }

    private init(compact payload: FlatJSONObject, subject: String) throws(TokenError) {
        func id(_ text: String, _ key: String) throws(TokenError) -> UUID {
            guard let id = SignedTokens.uuid(compact: text) else {
                throw .invalidClaims("'\(key)' must be 22 base64url characters of a UUID")
            }
            return id
        }
        func time(_ key: String) throws(TokenError) -> Date {
            guard let value = payload.integer(key), (0...253_402_300_799).contains(value) else {
                throw .invalidClaims("'\(key)' must be integer Unix seconds")
            }
            return Date(timeIntervalSince1970: TimeInterval(value))
        }
        guard let tokenId = payload.string("j") else { throw .invalidClaims("'j' is missing") }
        self.init(
            subject: try id(subject, "s"), issuedAt: try time("i"), expiresAt: try time("x"),
            tokenId: tokenId, eventId: try Self.optionalString(payload, "e").map { text throws(TokenError) in try id(text, "e") })
    }

    private init(long payload: FlatJSONObject, subject: String) throws(TokenError) {
        func id(_ text: String, _ key: String) throws(TokenError) -> UUID {
            guard let id = UUID(uuidString: text) else { throw .invalidClaims("'\(key)' must be a UUID") }
            return id
        }
        func date(_ key: String) throws(TokenError) -> Date {
            guard let text = payload.string(key), let date = Self.parseDate(text) else {
                throw .invalidClaims("'\(key)' must be an RFC 3339 date")
            }
            return date
        }
        guard let tokenId = payload.string("jti") else { throw .invalidClaims("'jti' is missing") }
        self.init(
            subject: try id(subject, "sub"), issuedAt: try date("iat"), expiresAt: try date("exp"),
            tokenId: tokenId, eventId: try Self.optionalString(payload, "evt").map { text throws(TokenError) in try id(text, "evt") })
    }

    /// A long-form date: RFC 3339, read by hand in the shape those tokens carried (`YYYY-MM-DDTHH:MM:SSZ`).
    package static func parseDate(_ text: String) -> Date? {
        utcSeconds(text) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// The shape long tokens carry, `YYYY-MM-DDTHH:MM:SSZ`, read without Foundation's date parser
    /// (which costs more than the signature check); nil for any other shape.
    private static func utcSeconds(_ text: String) -> Date? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
                bytes[16] == 0x3A, bytes[19] == 0x5A
            else { return nil }
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
                (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
            else { return nil }
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
}
