import Foundation
import Server
import Testing
import Tokens

@Suite struct ConfigurationTests {
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
        #expect(try ServerConfiguration(environment: [:]).streamLifetime == .seconds(3600))
        #expect(try ServerConfiguration(environment: ["CONSTELLATION_STREAM_LIFETIME_SECONDS": "600"]).streamLifetime == .seconds(600))
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["CONSTELLATION_STREAM_LIFETIME_SECONDS": "0"]) }
        #expect(try ServerConfiguration(environment: [:]).drainTimeout == .seconds(30))
        #expect(try ServerConfiguration(environment: ["CONSTELLATION_DRAIN_TIMEOUT_SECONDS": "5"]).drainTimeout == .seconds(5))
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["CONSTELLATION_DRAIN_TIMEOUT_SECONDS": "0"]) }
    }
}
