import Client
import ConstellationModel
import Foundation
import Keys
import Server
import TestSupport
import Testing
import Tokens

/// `keys rotate` on a data directory, seen by a running server that rereads its key files.
@Suite(.tier(.database)) struct KeyRotationTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(UUID().uuidString)")

    static let trust: Duration = .seconds(300 + 7_200)

    func pseudonym(_ ring: KeyRing) throws -> [UInt8] {
        try ring.eventPseudonyms.digest(Array("event and profile".utf8), length: 16)
    }

    @Test func aTokenMintedBeforeARotationRedeemsAfterItAndNewTokensCarryTheNewKey() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try KeyRingStore(environment: [:], dataDirectory: directory)
        try await TestServer.run(keys: keys) { server in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let before = try await ada.client.issueToken()
            let old = keys.current
            #expect(try ConnectionTokens.keyId(of: before.token) == old.signingKid)

            let rotatedFrom = Date()
            let rotation = try SigningKeyFile.rotate(dataDirectory: directory, trust: Self.trust)
            let rotatedBy = Date()
            #expect(rotation.retired.kid == old.signingKid && rotation.currentKid != old.signingKid)
            #expect(try keys.reloadIfChanged(), "the server rereads the changed files")
            #expect(try !keys.reloadIfChanged(), "and not again while they stay as they are")

            let published = try await server.client.keys().keys
            #expect(published.map(\.kid) == [old.signingKid, rotation.currentKid])
            #expect(published.map(\.status) == [.retired, .current])
            #expect(published[0].notAfter == rotation.retired.trustedUntil && published[1].notAfter == nil)
            // Measured around the rotation itself, not after it: a loaded CI machine took 5 s between the two.
            let trusted = rotation.retired.trustedUntil.timeIntervalSince1970
            #expect(
                trusted >= rotatedFrom.addingTimeInterval(7_500 - 1).timeIntervalSince1970
                    && trusted <= rotatedBy.addingTimeInterval(7_500 + 1).timeIntervalSince1970,
                "a token's lifetime plus the grace from the rotation")

            // The old key's token still redeems; a new token is signed by the new key and redeems too.
            #expect(try await bob.client.redeem(RedeemRequest(token: before.token)).created)
            let after = try await ada.client.issueToken()
            #expect(try ConnectionTokens.keyId(of: after.token) == rotation.currentKid)
            #expect(try await cleo.client.redeem(RedeemRequest(token: after.token)).created)
            #expect(try pseudonym(keys.current) == pseudonym(old), "organizers' pseudonyms do not change with the key")
        }
    }

    @Test func aRetiredKeyPastItsTrustIsRefusedWithKeyExpired() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try KeyRingStore(environment: [:], dataDirectory: directory)
        try await TestServer.run(keys: keys) { server in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let old = keys.current
            // Retired ten minutes ago, trusted for one: expired nine minutes ago.
            _ = try SigningKeyFile.rotate(dataDirectory: directory, trust: .seconds(60), now: Date().addingTimeInterval(-600))
            #expect(try keys.reloadIfChanged())
            // Signed before the retirement and not expired itself (an hour's lifetime): only the key's end refuses it.
            let token = try ConnectionTokens.issue(
                subject: ada.profile.id, lifetime: .seconds(3_600),
                now: Date().addingTimeInterval(-660), keys: old
            ).token
            await expectProblem(401, "key_expired") { _ = try await bob.client.redeem(RedeemRequest(token: token)) }
            #expect(try await server.count("connections") == 0)
            // An expired key is not published; `keys list` shows it as expired.
            #expect(try await server.client.keys().keys.map(\.status) == [.current])
            #expect(try keys.current.publishedKeys().map(\.status) == [.expired, .current])
        }
    }
}
