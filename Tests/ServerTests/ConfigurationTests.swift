import Foundation
import Server
import Testing
import Tokens

@Suite struct ConfigurationTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")

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

    @Test func environmentOverridesDefaultsAndBadValuesAreErrors() throws {
        let configuration = try ServerConfiguration(environment: [
            "CONSTELLATION_PORT": "9000", "CONSTELLATION_TOKEN_TTL_SECONDS": "60", "CONSTELLATION_MAX_REDEMPTIONS": "3",
        ])
        #expect(configuration.port == 9000)
        #expect(configuration.tokenLifetime == .seconds(60))
        #expect(configuration.maximumRedemptionsPerToken == 3)
        #expect(configuration.host == "127.0.0.1")
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["CONSTELLATION_PORT": "eighty"]) }
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["CONSTELLATION_TOKEN_TTL_SECONDS": "0"]) }
        #expect(try ServerConfiguration(environment: [:]).graphCacheEntries == 2_000)
        #expect(try ServerConfiguration(environment: ["CONSTELLATION_GRAPH_CACHE_ENTRIES": "150"]).graphCacheEntries == 150)
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["CONSTELLATION_GRAPH_CACHE_ENTRIES": "0"]) }
    }
}
