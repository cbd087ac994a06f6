import ConstellationModel
import Foundation

/// One person, several devices: links, the device list and recovery codes.
extension ConstellationClient {
    /// My live devices, oldest first.
    public func devices() async throws(ClientError) -> [Device] {
        let list: DeviceList = try await decode(send(.GET, "/v1/me/devices"))
        return list.devices
    }

    public func renameDevice(_ id: UUID, to name: String) async throws(ClientError) -> Device {
        try await decode(send(.PATCH, "/v1/me/devices/\(id.uuidString.lowercased())", body: DeviceChanges(name: name)))
    }

    /// Revokes one of my devices at once; my last one only with `evenTheLast`.
    public func revokeDevice(_ id: UUID, evenTheLast: Bool = false) async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/me/devices/\(id.uuidString.lowercased())" + (evenTheLast ? "?confirm=last-device" : ""))
    }

    /// A single-use link that gives a new device a key for my profile.
    public func createDeviceLink() async throws(ClientError) -> DeviceLink {
        try await decode(send(.POST, "/v1/me/device-links"))
    }

    /// Whether my link `id` was used yet, and by which device.
    public func deviceLink(_ id: UUID) async throws(ClientError) -> DeviceLinkStatus {
        try await decode(send(.GET, "/v1/me/device-links/\(id.uuidString.lowercased())"))
    }

    /// Uses a link made on another device (no key needed): the profile and this device's new key.
    public func redeemDeviceLink(_ redemption: DeviceLinkRedemption) async throws(ClientError) -> RegisteredProfile {
        try await decode(send(.POST, "/v1/device-links/redeem", body: redemption))
    }

    /// A new recovery code for my profile, shown this once; the previous one stops working.
    public func createRecoveryCode() async throws(ClientError) -> RecoveryCode {
        try await decode(send(.POST, "/v1/me/recovery-code"))
    }

    /// Uses a recovery code (no key needed): the profile and this device's new key.
    public func redeemRecoveryCode(_ redemption: RecoveryRedemption) async throws(ClientError) -> RegisteredProfile {
        try await decode(send(.POST, "/v1/recovery/redeem", body: redemption))
    }
}
