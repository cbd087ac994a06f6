import Client
import ConstellationModel
import Foundation
import Server
import Store
import TestSupport
import Testing

/// One person, several devices: a link made on one device gives another its own key for the same
/// profile, once and briefly; devices are listed, renamed and revoked (at once); a recovery code
/// gets the profile back. Every refusal has its code and writes nothing.
@Suite(.tier(.database)) struct DeviceTests {
    @Test func aLinkGivesANewDeviceItsOwnKeyForTheSameProfileOnce() async throws {
        try await TestServer.run { server throws in
            let phone = try await server.client.register(NewProfile(displayName: "Ada", deviceName: "Phone"))
            let ada = server.client.authenticated(phone.apiKey)
            #expect(phone.device.name == "Phone" && phone.device.current)
            let link = try await ada.createDeviceLink()
            #expect(link.code.count == 11 && Array(link.code)[5] == "-", "\(link.code)")
            #expect(link.token.hasPrefix("v4.public.") && link.link == nil)
            #expect(try await ada.deviceLink(link.id).state == .pending)

            let laptop = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: link.code.lowercased(), deviceName: "Laptop"))
            #expect(laptop.profile.id == phone.profile.id)
            #expect(laptop.apiKey != phone.apiKey && laptop.device.name == "Laptop")
            let second = server.client.authenticated(laptop.apiKey)
            #expect(try await second.me().id == phone.profile.id)

            // The first device sees that it was used, and by which device.
            let status = try await ada.deviceLink(link.id)
            #expect(status.state == .used && status.device?.id == laptop.device.id)
            // A link works once, by code or by token.
            let keys = try await server.count("api_keys")
            await expectProblem(409, "device_link_used") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: link.code))
            }
            await expectProblem(409, "device_link_used") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(token: link.token))
            }
            #expect(try await server.count("api_keys") == keys)

            // Both devices are listed; each knows which one it is.
            let seenByLaptop = try await second.devices()
            #expect(seenByLaptop.map(\.name) == ["Phone", "Laptop"])
            #expect(seenByLaptop.map(\.current) == [false, true])
            #expect(
                seenByLaptop.allSatisfy {
                    $0.lastUsedAt.map { Calendar(identifier: .gregorian).component(.minute, from: $0) == 0 } ?? true
                },
                "last used is to the hour")
        }
    }

    @Test func aTokenOrAnAddressHoldingItWorksAsWellAsTheCode() async throws {
        try await TestServer.run(configure: { $0.publicURL = "https://connect.example.org" }) { server throws in
            let ada = try await server.user("Ada")
            let link = try await ada.client.createDeviceLink()
            #expect(link.link == "https://connect.example.org/#link=\(link.token)")
            let laptop = try await server.client.redeemDeviceLink(DeviceLinkRedemption(token: link.link))
            #expect(laptop.profile.id == ada.profile.id && laptop.device.name == nil)
        }
    }

    @Test func badLinksAreRefusedWithTheirCodesAndCountAsFailures() async throws {
        try await TestServer.run(configure: { $0.deviceLinkLifetime = .seconds(1) }) { server throws in
            let ada = try await server.user("Ada")
            let expiring = try await ada.client.createDeviceLink()
            let keys = try await server.count("api_keys")
            await expectProblem(400, "invalid_device_link") { _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption()) }
            await expectProblem(400, "invalid_device_link") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(token: expiring.token, code: expiring.code))
            }
            await expectProblem(400, "invalid_device_link") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: "ABCDE-FGHI0"))
            }
            await expectProblem(404, "device_link_unknown") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: "ABCDE-FGHJK"))
            }
            // A connection token is not a link, though the same key signs both.
            let connectionToken = try await ada.client.issueToken().token
            await expectProblem(400, "invalid_device_link") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(token: connectionToken))
            }
            await expectProblem(422, "validation_failed") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: expiring.code, deviceName: "Evil\u{202E}"))
            }
            try await Task.sleep(for: .milliseconds(2_100))
            await expectProblem(410, "device_link_expired") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: expiring.code))
            }
            await expectProblem(410, "device_link_expired") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(token: expiring.token))
            }
            #expect(try await ada.client.deviceLink(expiring.id).state == .expired)
            #expect(try await server.count("api_keys") == keys, "no refusal wrote a key")
            // Another person cannot follow Ada's link.
            let bob = try await server.user("Bob")
            await expectProblem(404, "device_link_unknown") { _ = try await bob.client.deviceLink(expiring.id) }
        }
    }

    @Test func guessingCodesRunsIntoTheFailureLimit() async throws {
        try await TestServer.run(configure: { $0.rateLimits = RateLimits("auth_failure_address=5/h")! }) { server throws in
            for _ in 0..<5 {
                await expectProblem(404, "device_link_unknown") {
                    _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: "ABCDE-FGHJK"))
                }
            }
            await expectProblem(429, "rate_limited") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: "ABCDE-FGHJK"))
            }
            await expectProblem(429, "rate_limited") {
                _ = try await server.client.redeemRecoveryCode(RecoveryRedemption(recoveryCode: String(repeating: "A", count: 32)))
            }
        }
    }

    @Test func twentyDevicesRedeemingOneLinkAtOnceGetOneKey() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let link = try await ada.client.createDeviceLink()
            let outcomes = await withTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do {
                            _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: link.code))
                            return "linked"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "linked" }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0.contains("device_link_used") }.count == 19, "\(outcomes)")
            #expect(try await ada.client.devices().count == 2)
        }
    }

    @Test func aRevokedDeviceIsRefusedAtOnceAndTheLastOneOnlyOnPurpose() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let link = try await ada.client.createDeviceLink()
            let laptop = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: link.code, deviceName: "Laptop"))
            let second = server.client.authenticated(laptop.apiKey)
            _ = try await second.me()  // its key is now cached

            let renamed = try await ada.client.renameDevice(laptop.device.id, to: "  Old laptop ")
            #expect(renamed.name == "Old laptop" && !renamed.current)
            await expectProblem(422, "validation_failed") { _ = try await ada.client.renameDevice(laptop.device.id, to: " ") }
            // Another person's device is nobody's business: not found, whatever it is.
            await expectProblem(404, "device_not_found") { _ = try await bob.client.renameDevice(laptop.device.id, to: "Mine") }
            await expectProblem(404, "device_not_found") { try await bob.client.revokeDevice(laptop.device.id) }
            #expect(try await second.me().id == ada.profile.id, "Bob's attempts changed nothing")

            try await ada.client.revokeDevice(laptop.device.id)
            await expectProblem(401, "invalid_credentials") { _ = try await second.me() }
            await expectProblem(404, "device_not_found") { try await ada.client.revokeDevice(laptop.device.id) }

            // The last device goes only when its owner says so.
            let phone = try #require(try await ada.client.devices().first)
            await expectProblem(409, "last_device") { try await ada.client.revokeDevice(phone.id) }
            _ = try await ada.client.me()
            try await ada.client.revokeDevice(phone.id, evenTheLast: true)
            await expectProblem(401, "invalid_credentials") { _ = try await ada.client.me() }
        }
    }

    /// Two devices revoking each other at the same moment: one wins, the profile keeps a key.
    @Test func twoDevicesRevokingEachOtherLeaveOneStanding() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let laptop = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: try await ada.client.createDeviceLink().code))
            let second = server.client.authenticated(laptop.apiKey)
            let phoneId = try #require(try await ada.client.devices().first { $0.current }?.id)
            let revocations: [(ConstellationClient, UUID)] = [(ada.client, laptop.device.id), (second, phoneId)]
            let succeeded = await withTaskGroup(of: Bool.self) { group in
                for (client, device) in revocations {
                    group.addTask { (try? await client.revokeDevice(device)) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(succeeded == 1)
            #expect(try await server.count("api_keys WHERE revoked_at IS NULL") == 1)
        }
    }

    @Test func aRecoveryCodeWorksOnceAndANewOneVoidsTheOld() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let old = try await ada.client.createRecoveryCode()
            let code = try await ada.client.createRecoveryCode()
            #expect(code.recoveryCode.count == 39 && code.recoveryCode != old.recoveryCode, "\(code.recoveryCode)")
            await expectProblem(404, "recovery_code_unknown") {
                _ = try await server.client.redeemRecoveryCode(RecoveryRedemption(recoveryCode: old.recoveryCode))
            }
            await expectProblem(400, "invalid_recovery_code") {
                _ = try await server.client.redeemRecoveryCode(RecoveryRedemption(recoveryCode: "not a code"))
            }
            let typed = code.recoveryCode.lowercased().replacingOccurrences(of: "-", with: " ")
            let recovered = try await server.client.redeemRecoveryCode(RecoveryRedemption(recoveryCode: typed, deviceName: "New phone"))
            #expect(recovered.profile.id == ada.profile.id && recovered.device.name == "New phone")
            #expect(try await server.client.authenticated(recovered.apiKey).me().id == ada.profile.id)
            await expectProblem(404, "recovery_code_unknown") {
                _ = try await server.client.redeemRecoveryCode(RecoveryRedemption(recoveryCode: code.recoveryCode))
            }
            #expect(try await server.count("recovery_codes") == 0)
        }
    }

    /// A view token reads one event and nothing else: it cannot make a link or a recovery code.
    @Test func aViewTokenCannotLendTheProfile() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("lend"))
            let view = try await ada.client.issueViewToken(for: "lend")
            let viewer = server.client.authenticated(view.token)
            await expectProblem(403, "view_token_read_only") { _ = try await viewer.createDeviceLink() }
            await expectProblem(403, "view_token_read_only") { _ = try await viewer.devices() }
        }
    }

    /// A stolen device, once revoked, cannot come back: the links it made and not yet used, and the
    /// recovery code it made, go with it.
    @Test func revokingADeviceVoidsTheLinksAndRecoveryCodeItMade() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let stolen = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: try await ada.client.createDeviceLink().code))
            let thief = server.client.authenticated(stolen.apiKey)
            let link = try await thief.createDeviceLink()
            let code = try await thief.createRecoveryCode()
            try await ada.client.revokeDevice(stolen.device.id)
            await expectProblem(404, "device_link_unknown") {
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: link.code))
            }
            await expectProblem(404, "recovery_code_unknown") {
                _ = try await server.client.redeemRecoveryCode(RecoveryRedemption(recoveryCode: code.recoveryCode))
            }
            #expect(try await ada.client.devices().count == 1)
        }
    }

    /// Making a link forgets the profile's links that expired over a day ago, and only those.
    @Test func makingALinkForgetsTheOnesThatExpiredOverADayAgo() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let old = try await ada.client.createDeviceLink()
            let recent = try await ada.client.createDeviceLink()
            try await server.services.database.withConnection { connection in
                _ = try connection.query("UPDATE device_links SET expires_at = now() - interval '25 hours' WHERE id = \(old.id)")
                _ = try connection.query("UPDATE device_links SET expires_at = now() - interval '23 hours' WHERE id = \(recent.id)")
            }
            #expect(try await ada.client.deviceLink(old.id).state == .expired)
            _ = try await ada.client.createDeviceLink()
            await expectProblem(404, "device_link_unknown") { _ = try await ada.client.deviceLink(old.id) }
            #expect(try await ada.client.deviceLink(recent.id).state == .expired)
            #expect(try await server.count("device_links") == 2)
        }
    }

    /// Keys nobody used for a lifetime leave the cache, however far it is from full.
    @Test func aProfileHoldsTwentyDevicesAndARecoveryCodeStillWorks() async throws {
        try await TestServer.run(configure: { $0.rateLimits = .off }) { server throws in
            let ada = try await server.user("Ada")
            let limit = DeviceRepository.liveDeviceLimit
            for n in 2..<limit {
                let link = try await ada.client.createDeviceLink()
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: link.code, deviceName: "Device \(n)"))
            }
            // Two links made at 19 devices, redeemed at once: one device gets in.
            let links = [try await ada.client.createDeviceLink(), try await ada.client.createDeviceLink()]
            let statuses = try await CappedListsTests.statuses(links.count) { [server] in
                _ = try await server.client.redeemDeviceLink(DeviceLinkRedemption(code: links.randomElement()!.code))
            }
            #expect(statuses.sorted() == [201, 409], "at most \(limit) at once")
            #expect(try await ada.client.devices().count == limit)
            await expectProblem(409, "too_many_devices") { _ = try await ada.client.createDeviceLink() }

            // A recovery code is never refused: the device used longest ago is signed out for it.
            let code = try await ada.client.createRecoveryCode()
            let before = try await ada.client.devices()
            let longestAgo = try #require(before.min { ($0.lastUsedAt ?? $0.createdAt) < ($1.lastUsedAt ?? $1.createdAt) })
            let recovered = try await server.client.redeemRecoveryCode(RecoveryRedemption(recoveryCode: code.recoveryCode))
            let devices = try await server.client.authenticated(recovered.apiKey).devices()
            #expect(devices.count == limit && devices.contains { $0.id == recovered.device.id })
            #expect(Set(before.map(\.id)).subtracting(devices.map(\.id)) == [longestAgo.id], "the device used longest ago went, alone")
        }
    }

    @Test func expiredKeysAreSweptOutOncePerLifetime() async throws {
        let cache = CredentialCache(lifetime: .milliseconds(200))
        func credential() -> Credential {
            Credential(
                profile: Profile(id: UUID(), displayName: "Ada", headline: nil, createdAt: Date()), deviceId: UUID(), tokensValidFrom: nil)
        }
        for key in 0..<100 { cache.remember(credential(), for: [UInt8(key)], generation: cache.generation) }
        #expect(cache.count == 100, "within a lifetime, every key stays")
        try await Task.sleep(for: .milliseconds(450))
        cache.remember(credential(), for: [200], generation: cache.generation)
        #expect(cache.count == 1, "the hundred expired keys went with the next one remembered")
    }

    /// A lookup that read a key before its revocation must not put it back in the cache after.
    @Test func aLookupOlderThanARevocationIsNotRemembered() throws {
        let cache = CredentialCache(lifetime: .seconds(60))
        let profile = Profile(id: UUID(), displayName: "Ada", headline: nil, createdAt: Date())
        let credential = Credential(profile: profile, deviceId: UUID(), tokensValidFrom: nil)
        let before = cache.generation
        cache.forget(profile: profile.id)  // the revocation commits while the lookup is out
        cache.remember(credential, for: [1, 2, 3], generation: before)
        #expect(cache.value(for: [1, 2, 3]) == nil)
        cache.remember(credential, for: [1, 2, 3], generation: cache.generation)
        #expect(cache.value(for: [1, 2, 3]) == credential)
    }
}
