import Foundation

/// The public face of an attendee: what anyone who connects with them may see.
public struct Profile: Codable, Sendable, Equatable, Hashable {
    public let id: UUID
    public var displayName: String
    public var headline: String?
    public let createdAt: Date

    public init(id: UUID, displayName: String, headline: String?, createdAt: Date) {
        self.id = id
        self.displayName = displayName
        self.headline = headline
        self.createdAt = createdAt
    }

    /// Display names are 1…80 characters (Unicode code points, as PostgreSQL counts) after trimming; headlines at most 160.
    public static let displayNameLimit = 80
    public static let headlineLimit = 160
}

/// `POST /v1/profiles`: create a profile.
public struct NewProfile: Codable, Sendable {
    public var displayName: String
    public var headline: String?

    public init(displayName: String, headline: String? = nil) {
        self.displayName = displayName
        self.headline = headline
    }
}

/// The answer to `POST /v1/profiles`: the profile and its API key, shown this once.
public struct RegisteredProfile: Codable, Sendable {
    public let profile: Profile
    public let apiKey: String

    public init(profile: Profile, apiKey: String) {
        self.profile = profile
        self.apiKey = apiKey
    }
}

/// `PATCH /v1/me`: fields to change; absent fields stay, an empty headline clears it.
public struct ProfileChanges: Codable, Sendable {
    public var displayName: String?
    public var headline: String?

    public init(displayName: String? = nil, headline: String? = nil) {
        self.displayName = displayName
        self.headline = headline
    }
}
