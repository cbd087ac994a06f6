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

/// The server's keys: one that signs new tokens, every key whose tokens may still be alive, and
/// the secret behind organizers' pseudonyms, which stays when the signing key changes.
public struct KeyRing: Sendable {
    /// The key that signs new tokens.
    public let signingKey: SigningKey
    /// The id of `signingKey`.
    public let signingKid: String
    /// Every key that verifies, by kid, including the signing key; a retired key until its `notAfter`.
    public let verificationKeys: [String: VerificationKey]
    /// The key of organizers' per-event pseudonyms (`PseudonymKey.eventPurpose`).
    public let eventPseudonyms: PseudonymKey

    /// A ring whose current signing key is `current`; `retired` keys still verify until their `notAfter`.
    /// Without `eventPseudonyms`, pseudonyms derive from `current`, as they did before keys rotated.
    public init(current: SigningKey, since: Date, retired: [VerificationKey] = [], eventPseudonyms: PseudonymKey? = nil) throws(TokenError)
    {
        signingKey = current
        signingKid = try VerificationKey.kid(for: current.publicKey)
        var keys: [String: VerificationKey] = [:]
        for key in retired { keys[key.kid] = key }
        keys[signingKid] = VerificationKey(kid: signingKid, publicKey: current.publicKey, notBefore: since)
        verificationKeys = keys
        if let eventPseudonyms {
            self.eventPseudonyms = eventPseudonyms
        } else {
            self.eventPseudonyms = try PseudonymKey(purpose: PseudonymKey.eventPurpose, signingKey: current)
        }
    }
}
