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

    /// Dates in claims are RFC 3339 / ISO 8601 strings, as PASETO registers them, to the second.
    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    static func parseDate(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
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
