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

/// `POST /v1/profiles`: create a profile (and name the device its first key is for).
/// A registration may say what brought the newcomer: an event's join code (`event`, its slug or id,
/// with `joinCode`: they join it too), or the code they are about to scan (`token`). It then counts
/// against that event's budget, or that person's, rather than against the client's address.
public struct NewProfile: Codable, Sendable {
    public var displayName: String
    public var headline: String?
    public var deviceName: String?
    public var event: String?
    public var joinCode: String?
    public var token: String?

    public init(
        displayName: String, headline: String? = nil, deviceName: String? = nil, event: String? = nil, joinCode: String? = nil,
        token: String? = nil
    ) {
        self.displayName = displayName
        self.headline = headline
        self.deviceName = deviceName
        self.event = event
        self.joinCode = joinCode
        self.token = token
    }
}

/// The answer to `POST /v1/profiles`, `POST /v1/device-links/redeem` and `POST /v1/recovery/redeem`:
/// the profile, a new API key for it (shown this once) and the device that key is; `event`, the
/// event a registration's join code made the newcomer an attendee of.
public struct RegisteredProfile: Codable, Sendable {
    public let profile: Profile
    public let apiKey: String
    public let device: Device
    public let event: MyEvent?

    public init(profile: Profile, apiKey: String, device: Device, event: MyEvent? = nil) {
        self.profile = profile
        self.apiKey = apiKey
        self.device = device
        self.event = event
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
