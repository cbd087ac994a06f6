/// Why a token, key or claim was refused. Each case has a stable `code` for API errors.
public enum TokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not of the form `v4.public.<payload>[.<footer>]`.
    case malformed(String)
    /// Another PASETO version or purpose (e.g. `v4.local`, `v3.public`).
    case unsupportedVersion(String)
    /// A part that is not canonical, unpadded base64url.
    case badEncoding
    /// The signature does not match the header, body, footer and implicit assertion.
    case invalidSignature
    /// The footer names a key id this key set does not hold.
    case unknownKey(String)
    /// The footer names a retired key past its last token's expiry (and grace): no genuine token of it is still redeemable.
    case keyExpired(String)
    /// The token's `exp` has passed.
    case expired
    /// The token's `iat` (or `nbf`) is in the future.
    case notYetValid
    /// The claims are not the JSON object a connection token carries.
    case invalidClaims(String)
    /// Key material of the wrong size or encoding.
    case invalidKey(String)
    /// libsodium itself failed.
    case cryptoFailure(String)

    /// A stable, machine-readable code.
    public var code: String {
        switch self {
        case .malformed: "malformed_token"
        case .unsupportedVersion: "unsupported_token"
        case .badEncoding: "bad_token_encoding"
        case .invalidSignature: "invalid_signature"
        case .unknownKey: "unknown_key"
        case .keyExpired: "key_expired"
        case .expired: "token_expired"
        case .notYetValid: "token_not_yet_valid"
        case .invalidClaims: "invalid_claims"
        case .invalidKey: "invalid_key"
        case .cryptoFailure: "crypto_failure"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let why): "Malformed token: \(why)"
        case .unsupportedVersion(let header): "Unsupported token type '\(header)'; expected v4.public (or a badge code, b1.)"
        case .badEncoding: "Token is not canonical base64url"
        case .invalidSignature: "Token signature is invalid"
        case .unknownKey(let kid): "Token was signed by an unknown key '\(kid)'"
        case .keyExpired(let kid): "Token was signed by key '\(kid)', retired and no longer trusted"
        case .expired: "Token expired"
        case .notYetValid: "Token is not valid yet"
        case .invalidClaims(let why): "Invalid token claims: \(why)"
        case .invalidKey(let why): "Invalid key: \(why)"
        case .cryptoFailure(let why): "Cryptography failure: \(why)"
        }
    }
}
