import ConstellationModel
import Foundation
import Store
import TestSupport

/// A migrated database of its own and helpers to fill it.
struct StoreFixture {
    let database: Database
    /// Where `database` connects, for a second pool on the same data.
    let conninfo: String
    let profiles: ProfileRepository
    let connections: ConnectionRepository
    let events: EventRepository

    static func make(maximumConnections: Int = 8) async throws -> StoreFixture {
        let (database, conninfo) = try await TestDatabase.createMigrated(maximumConnections: maximumConnections)
        return StoreFixture(
            database: database, conninfo: conninfo, profiles: ProfileRepository(database: database),
            connections: ConnectionRepository(database: database),
            events: EventRepository(database: database))
    }

    func profile(_ name: String = "Ada") async throws -> Profile {
        try await profiles.create(displayName: name, headline: nil, apiKeyHash: (0..<32).map { _ in .random(in: 0...255) }).profile
    }

    func request(token: String, owner: Profile, scanner: Profile, maximumUses: Int = 100, nonce: String? = nil) -> RedemptionRequest {
        RedemptionRequest(
            tokenId: token, ownerId: owner.id, scannerId: scanner.id, eventId: nil, issuedAt: Date(),
            expiresAt: Date().addingTimeInterval(300), scannedAt: Date(), clientNonce: nonce, maximumUses: maximumUses)
    }

    func count(_ table: String) async throws -> Int64 {
        try await database.withConnection { try $0.query("SELECT count(*) AS n FROM \(unsafeSQL: table)")[0].int("n") }
    }
}
