import Foundation

/// A fresh connection token (`POST /v1/tokens`), to be shown as a QR code.
public struct IssuedToken: Codable, Sendable {
    public let token: String
    public let tokenId: String
    public let issuedAt: Date
    public let expiresAt: Date
    /// The event the token is for (its `evt` claim); absent for a personal token.
    public let eventId: UUID?
    /// `PUBLIC_URL/c#TOKEN`, what a QR code of the token holds, when the server has a public URL
    /// (`CONSTELLATION_PUBLIC_URL`); absent otherwise, and the code holds the token itself.
    public let link: String?

    /// What a QR code of this token holds: the link if there is one, else the token.
    public var qrText: String { link ?? token }

    public init(token: String, tokenId: String, issuedAt: Date, expiresAt: Date, eventId: UUID? = nil, link: String? = nil) {
        self.token = token
        self.link = link
        self.tokenId = tokenId
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.eventId = eventId
    }
}

/// Where a key stands: `current` signs new tokens; `retired` signs no more but verifies tokens it
/// signed until its `notAfter`; `expired` (listed by `constellation-server keys list` only) is past it.
public enum KeyStatus: String, Codable, Sendable {
    case current, retired, expired
}

/// One public key from `GET /v1/keys`, so clients can verify tokens without the network.
public struct PublishedKey: Codable, Sendable, Equatable {
    /// The short id carried in token footers.
    public let kid: String
    /// PASERK `k4.public.…`.
    public let publicKey: String
    /// PASERK `k4.pid.…`, the full key id.
    public let pid: String
    /// Whether it signs new tokens or only verifies old ones.
    public let status: KeyStatus
    /// When the key began signing (1970 when the server does not know, e.g. a retired key from the environment).
    public let notBefore: Date
    /// After this moment tokens signed by this key are refused; absent for the current key.
    public let notAfter: Date?

    public init(kid: String, publicKey: String, pid: String, status: KeyStatus? = nil, notBefore: Date, notAfter: Date?) {
        self.kid = kid
        self.publicKey = publicKey
        self.pid = pid
        self.status = status ?? (notAfter == nil ? .current : .retired)
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    private enum CodingKeys: String, CodingKey {
        case kid, publicKey, pid, status, notBefore, notAfter
    }

    /// A key set from a server that predates `status` (or cached from one) reads as current or retired by its `notAfter`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kid: try container.decode(String.self, forKey: .kid), publicKey: try container.decode(String.self, forKey: .publicKey),
            pid: try container.decode(String.self, forKey: .pid), status: try container.decodeIfPresent(KeyStatus.self, forKey: .status),
            notBefore: try container.decode(Date.self, forKey: .notBefore),
            notAfter: try container.decodeIfPresent(Date.self, forKey: .notAfter))
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
