import Foundation

/// A public key that verifies tokens, with its short id and the time it stops being trusted.
public struct VerificationKey: Sendable, Equatable {
    /// The short key id carried in token footers.
    public let kid: String
    public let publicKey: PublicKey
    /// From when tokens signed by this key are accepted.
    public let notBefore: Date
    /// After this moment, tokens signed by this key are refused (nil: no end yet).
    public let notAfter: Date?

    public init(kid: String, publicKey: PublicKey, notBefore: Date, notAfter: Date? = nil) {
        self.kid = kid
        self.publicKey = publicKey
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// The short key id for `key`: the first characters of its PASERK `k4.pid`, which is
    /// what `GET /v1/keys` maps it to (a full `k4.pid` would make every QR code larger).
    public static func kid(for key: PublicKey) throws(TokenError) -> String {
        String(try PASERK.publicId(of: key).dropFirst(PASERK.publicIdPrefix.count).prefix(kidLength))
    }

    static let kidLength = 8
}

/// The server's keys: one that signs new tokens and every key whose tokens may still be alive.
public struct KeyRing: Sendable {
    /// The key that signs new tokens.
    public let signingKey: SigningKey
    /// The id of `signingKey`.
    public let signingKid: String
    /// Every key that verifies, by kid, including the signing key.
    public let verificationKeys: [String: VerificationKey]

    /// A ring whose current signing key is `current`; `retired` keys still verify until their `notAfter`.
    public init(current: SigningKey, since: Date, retired: [VerificationKey] = []) throws(TokenError) {
        signingKey = current
        signingKid = try VerificationKey.kid(for: current.publicKey)
        var keys = Dictionary(uniqueKeysWithValues: retired.map { ($0.kid, $0) })
        keys[signingKid] = VerificationKey(kid: signingKid, publicKey: current.publicKey, notBefore: since)
        verificationKeys = keys
    }
}
