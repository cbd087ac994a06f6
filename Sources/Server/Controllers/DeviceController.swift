import ConstellationModel
import Foundation
import Hummingbird
import Logging
import QR
import Store
import Tokens

/// One person, several devices. A signed-in device makes a single-use link
/// (`POST /v1/me/device-links`, followed with `GET /v1/me/device-links/{id}`) that a new device
/// redeems for its own key (`POST /v1/device-links/redeem`); `GET /v1/me/devices`, `PATCH` and
/// `DELETE /v1/me/devices/{id}` list, rename and revoke; a recovery code
/// (`POST /v1/me/recovery-code`) gets the profile back on a new device (`POST /v1/recovery/redeem`).
/// Both redeem paths count their failures against the client's address like wrong API keys.
struct DeviceController {
    let services: AppServices

    func addPublicRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("device-links/redeem", use: redeemLink)
        group.post("recovery/redeem", use: redeemRecoveryCode)
    }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/devices", use: list)
        group.patch("me/devices/:device", use: rename)
        group.delete("me/devices/:device", use: revoke)
        group.post("me/device-links", use: createLink)
        group.get("me/device-links/:link", use: showLink)
        group.post("me/recovery-code", use: createRecoveryCode)
    }

    static let nameText = UserText(field: "name", minimum: 1, maximum: Device.nameLimit)
    static let deviceNameText = UserText(field: "deviceName", minimum: 1, maximum: Device.nameLimit)
    static let invalidLink = Problem(
        .invalidDeviceLink,
        detail: "Give the link's token (or the address holding it) or its code, XXXXX-XXXXX.")
    static let invalidRecoveryCode = Problem(
        .invalidRecoveryCode,
        detail: "A recovery code has 32 letters and digits in groups of four.")

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        async let devices = services.devices.devices(of: me.id, current: context.deviceId ?? UUID())
        async let recoveryCode = services.devices.recoveryCodeMade(of: me.id)
        return try .json(DeviceList(devices: try await devices, recoveryCodeAt: try await recoveryCode))
    }

    @Sendable func rename(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let changes = try await request.decode(as: DeviceChanges.self, context: context)
        let name = try Self.nameText.check(changes.name)
        guard let id = context.parameters.get("device").flatMap(UUID.init(uuidString:)),
            let device = try await services.devices.rename(id, of: me.id, to: name, current: context.deviceId ?? UUID())
        else { throw Problem.deviceNotFound }
        return try .json(device)
    }

    /// 204 once the device's key is revoked (its next request is 401, here at once); its profile's
    /// last device only with `?confirm=last-device`, else 409 `last_device`.
    @Sendable func revoke(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let id = context.parameters.get("device").flatMap(UUID.init(uuidString:)) else { throw Problem.deviceNotFound }
        let confirmed = request.uri.queryParameters.get("confirm") == "last-device"
        try await services.devices.revoke(id, of: me.id, allowingLast: confirmed)
        services.credentials.forget(profile: me.id)
        context.logger.info("device revoked", metadata: ["profile.id": "\(me.id)", "device.id": "\(id)"])
        return Response(status: .noContent)
    }

    /// 201 with a new single-use link for the caller's profile; counted like minting a QR code; 409
    /// `too_many_devices` at `DeviceRepository.liveDeviceLimit` (its redemption checks again).
    /// `?qr=svg` adds its QR code as an SVG document (a web page cannot draw one itself).
    @Sendable func createLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let qr = request.uri.queryParameters.get("qr")
        guard qr == nil || qr == "svg" else { throw Problem(.unsupportedFormat, detail: "qr must be svg") }
        try services.limiter.admit(.mint, credential: me.id, address: context.clientAddress)
        let (code, hash) = try SecretCode.deviceLink.generate()
        let expiresAt = Date(
            timeIntervalSince1970: (Date().timeIntervalSince1970 + services.configuration.deviceLinkLifetime.seconds).rounded(.down))
        let id = try await services.devices.createLink(for: me.id, by: try context.requireDevice(), codeHash: hash, expiresAt: expiresAt)
        let token = try DeviceLinks.issue(code: code, expiresAt: expiresAt, keys: services.keyRing)
        let address = services.configuration.deviceLink(to: token)
        let svg = try qr.map { _ in try QRCode(encoding: address ?? token).svg() }
        let link = DeviceLink(id: id, token: token, link: address, code: code, expiresAt: expiresAt, qrSVG: svg)
        return try Response.json(link, status: .created)
    }

    @Sendable func showLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let id = context.parameters.get("link").flatMap(UUID.init(uuidString:)),
            let status = try await services.devices.link(id, of: me.id)
        else { throw StoreError.unknownDeviceLink }
        return try Response.json(status)
    }

    /// 201 with the new device's profile and key. The link is a token (or an address holding one
    /// after `#link=`) or a typed code; any failure counts against the client's address.
    @Sendable func redeemLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await issueKey(context, "device linked") { keyHash in
            let input = try await request.decode(as: DeviceLinkRedemption.self, context: context)
            let deviceName = try input.deviceName.map(Self.deviceNameText.check)
            let code: String
            switch (input.token, input.code) {
            case (let token?, nil): code = try linkCode(inToken: token)
            case (nil, let typed?): code = typed
            default: throw Self.invalidLink
            }
            guard let hash = try SecretCode.deviceLink.hash(code) else { throw Self.invalidLink }
            return try await services.devices.redeemLink(codeHash: hash, keyHash: keyHash, deviceName: deviceName)
        }
    }

    /// 201 with a new recovery code, shown this once; the profile's previous one stops working.
    @Sendable func createRecoveryCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        try services.limiter.admit(.mint, credential: me.id, address: context.clientAddress)
        let (code, hash) = try SecretCode.recovery.generate()
        let createdAt = try await services.devices.setRecoveryCode(of: me.id, by: try context.requireDevice(), codeHash: hash)
        context.logger.info("recovery code made", metadata: ["profile.id": "\(me.id)"])
        return try Response.json(RecoveryCode(recoveryCode: code, createdAt: createdAt), status: .created)
    }

    /// 201 with a new key for the code's profile; the code is used up (make a new one). Never
    /// refused for the number of devices: at `DeviceRepository.liveDeviceLimit`, the one used longest ago is signed out.
    @Sendable func redeemRecoveryCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await issueKey(context, "profile recovered") { keyHash in
            let input = try await request.decode(as: RecoveryRedemption.self, context: context)
            let deviceName = try input.deviceName.map(Self.deviceNameText.check)
            guard let hash = try SecretCode.recovery.hash(input.recoveryCode) else { throw Self.invalidRecoveryCode }
            let recovered = try await services.devices.redeemRecoveryCode(codeHash: hash, keyHash: keyHash, deviceName: deviceName)
            if recovered.signedOut != nil { services.credentials.forget(profile: recovered.profile.id) }
            return (recovered.profile, recovered.device)
        }
    }

    /// The code inside a link token, or inside the address that holds one after `#link=`.
    private func linkCode(inToken text: String) throws -> String {
        let token = text.range(of: "#link=").map { String(text[$0.upperBound...]) } ?? text
        do throws(TokenError) {
            return try DeviceLinks.verify(token, keys: services.keyRing.verificationKeys)
        } catch .expired {
            throw StoreError.deviceLinkExpired
        } catch {
            throw Self.invalidLink
        }
    }

    /// A new key for a client that has not run out of failed attempts: `redeem` stores its hash for
    /// the profile of what the request redeems (a link, a recovery code) and says which profile and
    /// device; the answer carries the key. A refusal counts as a failed attempt of the client's address.
    private func issueKey(
        _ context: AppRequestContext, _ event: Logger.Message,
        _ redeem: (_ keyHash: [UInt8]) async throws -> (Profile, Device)
    ) async throws -> Response {
        try services.limiter.check(.authFailure, address: context.clientAddress)
        do {
            let apiKey = try APIKey.generate()
            let (profile, device) = try await redeem(apiKey.hash)
            context.logger.info(event, metadata: ["profile.id": "\(profile.id)", "device.id": "\(device.id)"])
            return try Response.json(RegisteredProfile(profile: profile, apiKey: apiKey.key, device: device), status: .created)
        } catch let refusal as any ProblemConvertible where (400..<500).contains(refusal.problem.status) {
            services.limiter.charge(.authFailure, address: context.clientAddress)
            throw refusal
        }
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
