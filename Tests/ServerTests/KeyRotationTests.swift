import Client
import ConstellationModel
import Foundation
import Server
import Testing
import Tokens

/// `keys rotate` on a data directory, seen by a running server that rereads its key files.
@Suite struct KeyRotationTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(UUID().uuidString)")

    static let trust: Duration = .seconds(300 + 7_200)

    func pseudonym(_ ring: KeyRing) throws -> [UInt8] {
        try ring.eventPseudonyms.digest(Array("event and profile".utf8), length: 16)
    }

    @Test func aTokenMintedBeforeARotationRedeemsAfterItAndNewTokensCarryTheNewKey() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try KeyRingStore(environment: [:], dataDirectory: directory)
        try await TestServer.run(keys: keys) { server in
            let ada = try await server.user("Ada"), bob = try await server.user("Bob"), cleo = try await server.user("Cleo")
            let before = try await ada.client.issueToken()
            let old = keys.current
            #expect(try ConnectionTokens.keyId(of: before.token) == old.signingKid)

            let rotation = try SigningKeyFile.rotate(dataDirectory: directory, trust: Self.trust)
            #expect(rotation.retired.kid == old.signingKid && rotation.currentKid != old.signingKid)
            #expect(try keys.reloadIfChanged(), "the server rereads the changed files")
            #expect(try !keys.reloadIfChanged(), "and not again while they stay as they are")

            let published = try await server.client.keys().keys
            #expect(published.map(\.kid) == [old.signingKid, rotation.currentKid])
            #expect(published.map(\.status) == [.retired, .current])
            #expect(published[0].notAfter == rotation.retired.trustedUntil && published[1].notAfter == nil)
            let expectedEnd = Date().addingTimeInterval(7_500)
            #expect(abs(rotation.retired.trustedUntil.timeIntervalSince(expectedEnd)) < 5, "a token's lifetime plus the grace from now")

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
            let ada = try await server.user("Ada"), bob = try await server.user("Bob")
            let old = keys.current
            // Retired ten minutes ago, trusted for one: expired nine minutes ago.
            _ = try SigningKeyFile.rotate(dataDirectory: directory, trust: .seconds(60), now: Date().addingTimeInterval(-600))
            #expect(try keys.reloadIfChanged())
            // Signed before the retirement and not expired itself (an hour's lifetime): only the key's end refuses it.
            let token = try ConnectionTokens.issue(subject: ada.profile.id, lifetime: .seconds(3_600),
                                                   now: Date().addingTimeInterval(-660), keys: old).token
            await expectProblem(401, "key_expired") { _ = try await bob.client.redeem(RedeemRequest(token: token)) }
            #expect(try await server.count("connections") == 0)
            // An expired key is not published; `keys list` shows it as expired.
            #expect(try await server.client.keys().keys.map(\.status) == [.current])
            #expect(try keys.current.publishedKeys().map(\.status) == [.expired, .current])
        }
    }

    @Test func aMalformedRetiredKeysLineIsAClearErrorAndAReloadKeepsTheKeysInUse() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try KeyRingStore(environment: [:], dataDirectory: directory)
        let kid = keys.current.signingKid
        let file = directory.appendingPathComponent("retired-keys")
        try "# comment\nk4.public.nope 2026-01-01T00:00:00Z\n".write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try keys.reloadIfChanged()
            Issue.record("a malformed retired-keys file was accepted")
        } catch let error as SigningKeyError {
            #expect(error.description.hasPrefix("\(file.path) line 2: expected `k4.public.… SINCE RETIRED-AT TRUSTED-UNTIL`"))
        }
        #expect(keys.current.signingKid == kid, "the keys in use stay")
        #expect(try !keys.reloadIfChanged(), "one error per change, not one per check")
        #expect(throws: SigningKeyError.self) { try KeyRingStore(environment: [:], dataDirectory: directory) }
        try "k4.public.AAAA 2026-01-01T00:00:00Z 2026-01-01T00:00:00Z 2026-01-02T00:00:00Z\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: SigningKeyError.self) { try SigningKeyFile.load(environment: [:], dataDirectory: directory) }
        try "".write(to: file, atomically: true, encoding: .utf8)
        #expect(try keys.reloadIfChanged() && keys.current.signingKid == kid)
    }

    /// A data directory from before rotation existed holds `signing-key` alone: its pseudonyms must stay,
    /// whether the server starts first or `keys rotate` runs first.
    @Test func pseudonymsOfAnExistingDeploymentStayAcrossRotations() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try SigningKey.generate()
        let before = try pseudonym(KeyRing(current: key, since: Date()))
        for (index, startFirst) in [true, false].enumerated() {
            let folder = directory.appendingPathComponent("\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let keyFile = folder.appendingPathComponent("signing-key")
            #expect(FileManager.default.createFile(atPath: keyFile.path, contents: Data((PASERK.encode(key) + "\n").utf8),
                                                   attributes: [.posixPermissions: 0o600]))
            if startFirst {
                #expect(try pseudonym(SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: folder)) == before)
            }
            _ = try SigningKeyFile.rotate(dataDirectory: folder, trust: Self.trust)
            _ = try SigningKeyFile.rotate(dataDirectory: folder, trust: Self.trust)
            let ring = try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: folder)
            #expect(ring.signingKey.publicKey != key.publicKey && ring.verificationKeys.count == 3)
            #expect(try pseudonym(ring) == before)
            let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("pseudonym-key").path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int == 0o600)
        }
        // A new deployment's pseudonym key is random, not derived from its first signing key.
        let fresh = directory.appendingPathComponent("fresh")
        let ring = try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: fresh)
        #expect(try pseudonym(ring) != pseudonym(KeyRing(current: ring.signingKey, since: Date())))
    }

    @Test func rotatingWithoutAKeyOrWithKeysInTheEnvironment() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: SigningKeyError.self) { try SigningKeyFile.rotate(dataDirectory: directory, trust: Self.trust) }
        #expect(!FileManager.default.fileExists(atPath: directory.path), "nothing is created for a wrong --data-dir")

        let old = try SigningKey.generate()
        let environment = ["CONSTELLATION_SIGNING_KEY": PASERK.encode(old)]
        let material = try SigningKeyFile.load(environment: environment, dataDirectory: directory)
        #expect(material.fromEnvironment)
        let oldRing = try material.keyRing()
        let owner = UUID()
        let token = try ConnectionTokens.issue(subject: owner, lifetime: .seconds(300), keys: oldRing).token

        // The values `keys rotate --print-environment` prints make a ring in which the old key still verifies.
        let rotation = try SigningKeyFile.environmentRotation(of: material, trust: Self.trust)
        let rotated = try SigningKeyFile.loadKeyRing(environment: [
            "CONSTELLATION_SIGNING_KEY": rotation.signingKey, "CONSTELLATION_RETIRED_KEYS": rotation.retiredKeys,
            "CONSTELLATION_PSEUDONYM_KEY": rotation.pseudonymKey,
        ], dataDirectory: directory)
        #expect(rotated.signingKid == rotation.newKid)
        #expect(try ConnectionTokens.verify(token, keys: rotated.verificationKeys).subject == owner)
        #expect(rotated.verificationKeys[oldRing.signingKid]?.notAfter == rotation.retired.trustedUntil)
        #expect(try pseudonym(rotated) == pseudonym(oldRing))
        #expect(!FileManager.default.fileExists(atPath: directory.path), "keys in the environment write no file")

        for (variables, source) in [
            (["CONSTELLATION_RETIRED_KEYS": "k4.public.AAAA"], "CONSTELLATION_RETIRED_KEYS line 1"),
            (["CONSTELLATION_RETIRED_KEYS": "\(PASERK.encode(old.publicKey))@tomorrow"], "CONSTELLATION_RETIRED_KEYS line 1"),
            (["CONSTELLATION_PSEUDONYM_KEY": "secret"], "CONSTELLATION_PSEUDONYM_KEY"),
        ] {
            do {
                _ = try SigningKeyFile.load(environment: environment.merging(variables) { $1 }, dataDirectory: directory)
                Issue.record("\(variables) was accepted")
            } catch let error as SigningKeyError {
                #expect(error.description.hasPrefix(source + ":"), "\(error)")
            }
        }
        #expect(throws: SigningKeyError.self) {
            try SigningKeyFile.load(environment: ["CONSTELLATION_RETIRED_KEYS": rotation.retiredKeys], dataDirectory: directory)
        }
    }
}
