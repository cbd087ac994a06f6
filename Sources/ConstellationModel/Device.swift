import Foundation

/// One of a profile's devices: an API key as its owner sees it (never the key itself).
public struct Device: Codable, Sendable, Equatable {
    public let id: UUID
    /// A name its owner chose (`PATCH /v1/me/devices/{id}`), or nil.
    public let name: String?
    public let createdAt: Date
    /// When the key was last used, to the hour (coarse on purpose), or nil if never since it was made.
    public let lastUsedAt: Date?
    /// Whether this is the device asking.
    public let current: Bool

    public init(id: UUID, name: String?, createdAt: Date, lastUsedAt: Date?, current: Bool) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }

    /// Device names are 1…60 characters after trimming.
    public static let nameLimit = 60
}

/// `GET /v1/me/devices`: my live devices, oldest first.
public struct DeviceList: Codable, Sendable {
    public let devices: [Device]
    /// When the profile's recovery code was made; nil when it has none (then its devices are the
    /// only way back to it).
    public let recoveryCodeAt: Date?

    public init(devices: [Device], recoveryCodeAt: Date? = nil) {
        self.devices = devices
        self.recoveryCodeAt = recoveryCodeAt
    }
}

/// `PATCH /v1/me/devices/{id}`.
public struct DeviceChanges: Codable, Sendable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// The answer to `POST /v1/me/device-links`: what the new device needs, shown as a QR code
/// (`link` if the server has a public URL, else `token`) and as a `code` to type.
public struct DeviceLink: Codable, Sendable {
    /// What `GET /v1/me/device-links/{id}` follows.
    public let id: UUID
    /// A signed token (purpose `constellation:device-link:v1`) holding the code.
    public let token: String
    /// `PUBLIC_URL/link#TOKEN` when the server has a public URL.
    public let link: String?
    /// The same link, typed: `XXXXX-XXXXX`.
    public let code: String
    public let expiresAt: Date
    /// The QR code of `qrText` as an SVG document, when asked for (`?qr=svg`, for a web page).
    public let qrSVG: String?

    public init(id: UUID, token: String, link: String?, code: String, expiresAt: Date, qrSVG: String? = nil) {
        self.id = id
        self.token = token
        self.link = link
        self.code = code
        self.expiresAt = expiresAt
        self.qrSVG = qrSVG
    }

    /// What a QR code of this link holds.
    public var qrText: String { link ?? token }
}

/// `GET /v1/me/device-links/{id}`: whether the link was used, and by which device.
public struct DeviceLinkStatus: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case pending, used, expired
    }

    public let id: UUID
    public let state: State
    public let expiresAt: Date
    /// The device that used the link (while it is not revoked).
    public let device: Device?

    public init(id: UUID, state: State, expiresAt: Date, device: Device?) {
        self.id = id
        self.state = state
        self.expiresAt = expiresAt
        self.device = device
    }
}

/// `POST /v1/device-links/redeem`: a link's `token` (or a URL holding it) or its typed `code`,
/// and a name for the new device.
public struct DeviceLinkRedemption: Codable, Sendable {
    public var token: String?
    public var code: String?
    public var deviceName: String?

    public init(token: String? = nil, code: String? = nil, deviceName: String? = nil) {
        self.token = token
        self.code = code
        self.deviceName = deviceName
    }
}

/// The answer to `POST /v1/me/recovery-code`: the code, shown this once.
public struct RecoveryCode: Codable, Sendable {
    public let recoveryCode: String
    public let createdAt: Date

    public init(recoveryCode: String, createdAt: Date) {
        self.recoveryCode = recoveryCode
        self.createdAt = createdAt
    }
}

/// `POST /v1/recovery/redeem`.
public struct RecoveryRedemption: Codable, Sendable {
    public var recoveryCode: String
    public var deviceName: String?

    public init(recoveryCode: String, deviceName: String? = nil) {
        self.recoveryCode = recoveryCode
        self.deviceName = deviceName
    }
}
