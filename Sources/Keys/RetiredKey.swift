import Foundation
import Tokens

/// A signing key that signs no more: its public half verifies the tokens it signed until
/// `trustedUntil` (its retirement plus a token's lifetime plus the offline grace), after which
/// no genuine token of it can still be redeemed.
///
/// One line of the data directory's `retired-keys` file:
/// `k4.public.… SINCE RETIRED-AT TRUSTED-UNTIL` (RFC 3339 dates); or one entry of
/// `CONSTELLATION_RETIRED_KEYS`: `k4.public.…@TRUSTED-UNTIL`.
public struct RetiredKey: Sendable, Equatable {
    public let publicKey: PublicKey
    /// The short key id tokens carry.
    public let kid: String
    /// When it began signing (unknown for a key from the environment).
    public let since: Date?
    /// When it stopped signing (unknown for a key from the environment).
    public let retiredAt: Date?
    /// The last moment a token it signed verifies.
    public let trustedUntil: Date

    public init(publicKey: PublicKey, since: Date?, retiredAt: Date?, trustedUntil: Date) throws(TokenError) {
        self.publicKey = publicKey
        kid = try VerificationKey.kid(for: publicKey)
        self.since = since
        self.retiredAt = retiredAt
        self.trustedUntil = trustedUntil
    }

    /// As a key ring holds it: `notBefore` is 1970 when `since` is unknown.
    var verificationKey: VerificationKey {
        VerificationKey(kid: kid, publicKey: publicKey, notBefore: since ?? Date(timeIntervalSince1970: 0), notAfter: trustedUntil)
    }

    // MARK: - Text forms

    /// The file's first line, for whoever opens it.
    static let fileHeader = "# Retired signing keys (constellation-server keys rotate): k4.public  since  retired-at  trusted-until"

    /// Its line in `retired-keys`.
    var line: String {
        let unknown = Date(timeIntervalSince1970: 0)
        return [PASERK.encode(publicKey), Self.format(since ?? unknown), Self.format(retiredAt ?? unknown), Self.format(trustedUntil)]
            .joined(separator: " ")
    }

    /// Its entry in `CONSTELLATION_RETIRED_KEYS`.
    var environmentEntry: String { PASERK.encode(publicKey) + "@" + Self.format(trustedUntil) }

    /// The keys of a `retired-keys` file (blank lines and `#` comments skipped); `source` names it in errors.
    static func parseFile(_ text: String, source: String) throws(SigningKeyError) -> [RetiredKey] {
        var keys: [RetiredKey] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
            let expected = "expected `k4.public.… SINCE RETIRED-AT TRUSTED-UNTIL` (RFC 3339 dates)"
            guard fields.count == 4 else { throw .malformed(source: source, line: index + 1, why: expected) }
            func date(_ text: String) throws(SigningKeyError) -> Date {
                guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                    throw .malformed(source: source, line: index + 1, why: "'\(text)' is not an RFC 3339 date; \(expected)")
                }
                return date
            }
            let epoch = Date(timeIntervalSince1970: 0)
            let since = try date(fields[1])
            let retiredAt = try date(fields[2])
            keys.append(
                try key(
                    fields[0], since: since == epoch ? nil : since, retiredAt: retiredAt == epoch ? nil : retiredAt,
                    trustedUntil: try date(fields[3]), source: source, line: index + 1))
        }
        return keys
    }

    /// The keys of `CONSTELLATION_RETIRED_KEYS`: `k4.public.…@TRUSTED-UNTIL`, comma separated.
    static func parseEnvironment(_ text: String, variable: String) throws(SigningKeyError) -> [RetiredKey] {
        var keys: [RetiredKey] = []
        for (index, raw) in text.split(separator: ",").enumerated() {
            let entry = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !entry.isEmpty else { continue }
            guard let at = entry.lastIndex(of: "@"),
                let until = try? Date.ISO8601FormatStyle().parse(String(entry[entry.index(after: at)...]))
            else {
                throw .malformed(
                    source: variable, line: index + 1, why: "expected `k4.public.…@TRUSTED-UNTIL` (an RFC 3339 date), comma separated")
            }
            keys.append(try key(String(entry[..<at]), since: nil, retiredAt: nil, trustedUntil: until, source: variable, line: index + 1))
        }
        return keys
    }

    private static func key(
        _ text: String, since: Date?, retiredAt: Date?, trustedUntil: Date, source: String, line: Int
    ) throws(SigningKeyError) -> RetiredKey {
        do {
            return try RetiredKey(publicKey: PASERK.decodePublicKey(text), since: since, retiredAt: retiredAt, trustedUntil: trustedUntil)
        } catch {
            throw .malformed(source: source, line: line, why: "not a k4.public key: \(error)")
        }
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
