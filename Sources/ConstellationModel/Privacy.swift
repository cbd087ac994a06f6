import Foundation

/// The answer to `POST /v1/me/qr/reset`: tokens issued before this instant no longer redeem.
///
/// Tokens state their issue time (`iat`) in whole seconds, so the instant is the whole second
/// after the reset: a token from the reset's own second that was issued before the reset is
/// revoked, and every token issued after the reset carries an `iat` no earlier than this.
public struct TokenReset: Codable, Sendable, Equatable {
    public let tokensValidFrom: Date

    public init(tokensValidFrom: Date) {
        self.tokensValidFrom = tokensValidFrom
    }
}

/// `DELETE /v1/me` must say it means it: `{"confirm": "delete"}` (or `?confirm=delete`).
public struct DeletionConfirmation: Codable, Sendable, Equatable {
    public static let phrase = "delete"
    public var confirm: String

    public init(confirm: String = DeletionConfirmation.phrase) {
        self.confirm = confirm
    }
}

/// Someone I blocked: neither of us can connect with the other while the block lasts.
public struct Block: Codable, Sendable, Equatable {
    /// The blocked person's public fields.
    public let profile: Profile
    public let blockedAt: Date

    public init(profile: Profile, blockedAt: Date) {
        self.profile = profile
        self.blockedAt = blockedAt
    }
}

/// `GET /v1/me/blocks`: the people I blocked, most recent first.
public typealias BlockList = Page<Block>
