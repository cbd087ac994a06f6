import Foundation

/// Device links: a signed-in device lends its profile to a new one for a minute or two. The link
/// is a typed code (`XXXXX-XXXXX`, 10 symbols, about 49.5 bits; see `TypedCode`) and, for a QR code,
/// a token signed for its own purpose that carries the same code, so that a camera and a keyboard
/// reach the same single-use link. The server keeps only the code's hash (`SecretCode.deviceLink`).
public enum DeviceLinks {
    /// The implicit assertion of link tokens: no connection or view token verifies as one.
    public static let implicitAssertion = "constellation:device-link:v1"
    static let format = SecretCode.deviceLink.format

    /// Signs a token carrying `code`, valid until `expiresAt` (to the second). Its payload:
    /// `{"c":"<10 symbols>","x":<int>}`.
    public static func issue(code: String, expiresAt: Date, keys: KeyRing) throws(TokenError) -> String {
        guard let symbols = format.normalize(code) else { throw .invalidClaims("not a link code") }
        let expiry = Int64(expiresAt.timeIntervalSince1970.rounded(.down))
        return try SignedTokens.sign(Array("{\"c\":\"\(symbols)\",\"x\":\(expiry)}".utf8), implicitAssertion: implicitAssertion, keys: keys)
    }

    /// The code a link token carries, once its signature, purpose and expiry are checked at `now`.
    public static func verify(_ token: String, keys: [String: VerificationKey], now: Date = Date()) throws(TokenError) -> String {
        let (message, key) = try SignedTokens.open(token, implicitAssertion: implicitAssertion, keys: keys)
        guard let payload = FlatJSONObject(message), let symbols = payload.string("c"), let code = format.normalize(symbols),
            let expiry = payload.integer("x"), (0...253_402_300_799).contains(expiry)
        else { throw .invalidClaims("the payload is not a device link's {c, x}") }
        if let notAfter = key.notAfter, now > notAfter { throw .keyExpired(key.kid) }
        guard Date(timeIntervalSince1970: TimeInterval(expiry)) > now else { throw .expired }
        return code
    }
}
