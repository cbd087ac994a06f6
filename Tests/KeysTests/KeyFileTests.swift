import Foundation
import Keys
import Testing
import Tokens

/// The key files of a data directory (or the keys in the environment): created private, refused
/// when others can read them or when malformed, rotated without losing pseudonyms.
@Suite struct KeyFileTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")

    /// How long `keys rotate` keeps trusting the retired key in these tests.
    static let trust: Duration = .seconds(300 + 7_200)

    func pseudonym(_ ring: KeyRing) throws -> [UInt8] {
        try ring.eventPseudonyms.digest(Array("event and profile".utf8), length: 16)
    }

    @Test func signingKeyFileIsCreatedPrivateAndReused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: directory)
        let file = directory.appendingPathComponent("signing-key")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let second = try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: directory)
        #expect(first.signingKid == second.signingKid)
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: directory)
        chmod(directory.appendingPathComponent("signing-key").path, 0o644)
        #expect(throws: SigningKeyError.self) { try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: directory) }
    }

    @Test func theEnvironmentKeyWinsAndIsChecked() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try SigningKey.generate()
        let ring = try SigningKeyFile.loadKeyRing(environment: ["CONSTELLATION_SIGNING_KEY": PASERK.encode(key)], dataDirectory: directory)
        #expect(ring.signingKey.publicKey == key.publicKey)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("signing-key").path))
        // The error names the variable, not just the key's flaw.
        let error = #expect(throws: SigningKeyError.self) {
            try SigningKeyFile.loadKeyRing(environment: ["CONSTELLATION_SIGNING_KEY": "k4.secret.short"], dataDirectory: directory)
        }
        #expect(error?.description.hasPrefix("CONSTELLATION_SIGNING_KEY: ") == true)
    }

    /// Keys that are no secret, or listed twice, are refused wherever they come from, naming where.
    @Test func keysOfAllZerosOrListedTwiceAreRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let zeroSeed = PASERK.encode(try SigningKey(seed: [UInt8](repeating: 0, count: 32)))
        let zeroPublic = "k4.public." + String(repeating: "A", count: 43)
        let key = try SigningKey.generate()
        let other = PASERK.encode(try SigningKey.generate().publicKey)
        let cases: [(String, [String: String], String)] = [
            ("a zero seed", ["CONSTELLATION_SIGNING_KEY": zeroSeed], "CONSTELLATION_SIGNING_KEY: "),
            (
                "a zero pseudonym key",
                [
                    "CONSTELLATION_SIGNING_KEY": PASERK.encode(key),
                    "CONSTELLATION_PSEUDONYM_KEY": "cst.pseudonym.v1." + String(repeating: "A", count: 43),
                ],
                "CONSTELLATION_PSEUDONYM_KEY: "
            ),
            (
                "a zero retired key",
                ["CONSTELLATION_SIGNING_KEY": PASERK.encode(key), "CONSTELLATION_RETIRED_KEYS": "\(zeroPublic)@2030-01-01T00:00:00Z"],
                "CONSTELLATION_RETIRED_KEYS: "
            ),
            (
                "a retired key twice",
                [
                    "CONSTELLATION_SIGNING_KEY": PASERK.encode(key),
                    "CONSTELLATION_RETIRED_KEYS": "\(other)@2030-01-01T00:00:00Z,\(other)@2030-01-02T00:00:00Z",
                ],
                "CONSTELLATION_RETIRED_KEYS: "
            ),
        ]
        for (name, environment, prefix) in cases {
            let error = #expect(throws: SigningKeyError.self, "\(name)") {
                try SigningKeyFile.loadKeyRing(environment: environment, dataDirectory: directory)
            }
            #expect(error?.description.hasPrefix(prefix) == true, "\(name): \(String(describing: error))")
        }
        // The same keys in files: a zero seed in `signing-key` is refused by its path.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("signing-key")
        #expect(
            FileManager.default.createFile(
                atPath: file.path, contents: Data((zeroSeed + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        let error = #expect(throws: SigningKeyError.self) { try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: directory) }
        #expect(error?.description.hasPrefix(file.path) == true, "\(String(describing: error))")
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
        try "k4.public.AAAA 2026-01-01T00:00:00Z 2026-01-01T00:00:00Z 2026-01-02T00:00:00Z\n".write(
            to: file, atomically: true, encoding: .utf8)
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
            #expect(
                FileManager.default.createFile(
                    atPath: keyFile.path, contents: Data((PASERK.encode(key) + "\n").utf8),
                    attributes: [.posixPermissions: 0o600]))
            if startFirst {
                #expect(try pseudonym(SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: folder)) == before)
            }
            _ = try SigningKeyFile.rotate(dataDirectory: folder, trust: Self.trust)
            _ = try SigningKeyFile.rotate(dataDirectory: folder, trust: Self.trust)
            let ring = try SigningKeyFile.loadKeyRing(environment: [:], dataDirectory: folder)
            #expect(ring.signingKey.publicKey != key.publicKey && ring.verificationKeys.count == 3)
            #expect(try pseudonym(ring) == before)
            let mode =
                try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("pseudonym-key").path)[.posixPermissions]
                as? Int
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
        let rotated = try SigningKeyFile.loadKeyRing(
            environment: [
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
