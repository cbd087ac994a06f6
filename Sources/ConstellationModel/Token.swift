import Foundation

/// A fresh connection token (`POST /v1/tokens`), to be shown as a QR code.
public struct IssuedToken: Codable, Sendable {
    public let token: String
    public let tokenId: String
    public let issuedAt: Date
    public let expiresAt: Date
    /// The event the token is for (its `evt` claim); absent for a personal token.
    public let eventId: UUID?

    public init(token: String, tokenId: String, issuedAt: Date, expiresAt: Date, eventId: UUID? = nil) {
        self.token = token
        self.tokenId = tokenId
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.eventId = eventId
    }
}

/// One public key from `GET /v1/keys`, so clients can verify tokens without the network.
public struct PublishedKey: Codable, Sendable, Equatable {
    /// The short id carried in token footers.
    public let kid: String
    /// PASERK `k4.public.…`.
    public let publicKey: String
    /// PASERK `k4.pid.…`, the full key id.
    public let pid: String
    public let notBefore: Date
    /// After this moment tokens signed by this key are refused; absent for the current key.
    public let notAfter: Date?

    public init(kid: String, publicKey: String, pid: String, notBefore: Date, notAfter: Date?) {
        self.kid = kid
        self.publicKey = publicKey
        self.pid = pid
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}

/// `GET /v1/keys`.
public struct KeySet: Codable, Sendable, Equatable {
    public let keys: [PublishedKey]
    /// How long after expiry a token scanned offline may still be redeemed, in seconds.
    public let offlineGraceSeconds: Int

    public init(keys: [PublishedKey], offlineGraceSeconds: Int) {
        self.keys = keys
        self.offlineGraceSeconds = offlineGraceSeconds
    }
}
