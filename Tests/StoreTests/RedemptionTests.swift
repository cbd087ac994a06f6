import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

@Suite(.tier(.database)) struct RedemptionTests {
    @Test func firstScanCreatesAndRescanIsIdempotent() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let first = try await store.connections.redeem(store.request(token: "t1", owner: ada, scanner: bob))
        #expect(first.created)
        #expect(first.connection.peer == ada)
        let again = try await store.connections.redeem(store.request(token: "t1", owner: ada, scanner: bob))
        #expect(!again.created)
        #expect(again.connection.id == first.connection.id)
        #expect(try await store.count("connections") == 1)
        #expect(try await store.count("redemptions") == 1)
    }

    @Test func aPairIsStoredOnceWhicheverWayItIsScanned() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let one = try await store.connections.redeem(store.request(token: "ada-token", owner: ada, scanner: bob))
        let other = try await store.connections.redeem(store.request(token: "bob-token", owner: bob, scanner: ada))
        #expect(one.created && !other.created)
        #expect(one.connection.id == other.connection.id)
        #expect(other.connection.peer == bob)
        #expect(try await store.count("connections") == 1)
        // The database itself refuses a reversed pair (its check, 23514) and a duplicated one (its unique index, 23505).
        for (sql, state): (SQL, String) in [
            (
                "INSERT INTO connections (profile_a, profile_b, token_id) VALUES (GREATEST(\(ada.id), \(bob.id)), LEAST(\(ada.id), \(bob.id)), 'x')",
                "23514"
            ),
            (
                "INSERT INTO connections (profile_a, profile_b, token_id) VALUES (LEAST(\(ada.id), \(bob.id)), GREATEST(\(ada.id), \(bob.id)), 'x')",
                "23505"
            ),
        ] {
            let refused = await #expect(throws: PostgresError.self) {
                try await store.database.withConnection { connection in try connection.query(sql) }
            }
            #expect(refused?.sqlState == state, "\(String(describing: refused))")
        }
    }

    @Test func selfConnectionIsRefusedAndWritesNothing() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile()
        await #expect(throws: StoreError.selfConnection) {
            try await store.connections.redeem(store.request(token: "t", owner: ada, scanner: ada))
        }
        #expect(try await store.count("token_uses") == 0)
    }

    @Test func unknownOwnerIsRefusedAndWritesNothing() async throws {
        let store = try await StoreFixture.make()
        let bob = try await store.profile("Bob")
        let ghost = Profile(id: UUID(), displayName: "Ghost", headline: nil, createdAt: Date())
        await #expect(throws: StoreError.unknownOwner) {
            try await store.connections.redeem(store.request(token: "t", owner: ghost, scanner: bob))
        }
        #expect(try await store.count("token_uses") == 0)
        #expect(try await store.count("connections") == 0)
    }

    /// 40 people scan one QR code at once; the cap is 10: exactly 10 connect, the rest are told it is used up.
    @Test func concurrentScannersOfOneTokenRespectTheCap() async throws {
        let store = try await StoreFixture.make()
        let owner = try await store.profile("Owner")
        var scanners: [Profile] = []
        for index in 0..<40 { scanners.append(try await store.profile("Scanner \(index)")) }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for scanner in scanners {
                group.addTask {
                    do {
                        return try await store.connections.redeem(
                            store.request(token: "shared", owner: owner, scanner: scanner, maximumUses: 10)
                        ).created
                    } catch StoreError.tokenUsedUp {
                        return false
                    } catch {
                        Issue.record("unexpected \(error)")
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 10)
        #expect(try await store.count("connections") == 10)
        #expect(try await store.count("redemptions") == 10)
        let uses = try await store.database.withConnection { try $0.query("SELECT uses FROM token_uses")[0].int("uses") }
        #expect(uses == 10)
    }

    /// One person's phone sends the same scan 20 times at once: one connection, one redemption, one use.
    @Test func concurrentRescansByOneScannerLeaveOneRow() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let results = try await withThrowingTaskGroup(of: Redemption.self) { group in
            for _ in 0..<20 { group.addTask { try await store.connections.redeem(store.request(token: "t", owner: ada, scanner: bob)) } }
            return try await group.reduce(into: [Redemption]()) { $0.append($1) }
        }
        #expect(Set(results.map(\.connection.id)).count == 1)
        #expect(results.filter(\.created).count == 1)
        #expect(try await store.count("connections") == 1)
        #expect(try await store.count("redemptions") == 1)
        let uses = try await store.database.withConnection { try $0.query("SELECT uses FROM token_uses")[0].int("uses") }
        #expect(uses == 1)
    }

    @Test func connectionsArePagedNewestFirst() async throws {
        let store = try await StoreFixture.make()
        let me = try await store.profile("Me")
        var peers: [Profile] = []
        for index in 0..<5 {
            let peer = try await store.profile("Peer \(index)")
            peers.append(peer)
            _ = try await store.connections.redeem(store.request(token: "t\(index)", owner: peer, scanner: me))
        }
        let first = try await store.connections.connections(of: me.id, before: nil, limit: 3)
        #expect(first.items.map(\.peer.displayName) == ["Peer 4", "Peer 3", "Peer 2"])
        let cursor = try #require(first.nextCursor.flatMap { Int64($0) })
        let second = try await store.connections.connections(of: me.id, before: cursor, limit: 3)
        #expect(second.items.map(\.peer.displayName) == ["Peer 1", "Peer 0"])
        #expect(second.nextCursor == nil)
    }
}

extension RedemptionTests {
    /// The QR reset is checked inside the redemption's own statement: a token issued before it is
    /// refused, a re-scan by someone who redeemed it before too (their connection stays), and
    /// nothing is written.
    @Test func aTokenIssuedBeforeItsOwnersResetIsRefusedInsideTheRedemption() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let cleo = try await store.profile("Cleo")
        let issued = Date().addingTimeInterval(-60)
        func scan(by scanner: Profile, issuedAt: Date = issued) -> RedemptionRequest {
            RedemptionRequest(
                tokenId: "shown", ownerId: ada.id, scannerId: scanner.id, eventId: nil, issuedAt: issuedAt,
                expiresAt: Date().addingTimeInterval(240), scannedAt: Date(), clientNonce: nil, maximumUses: 10)
        }
        #expect(try await store.connections.redeem(scan(by: bob)).created)
        let validFrom = try #require(try await store.profiles.resetTokens(of: ada.id, at: Date()))
        let uses = try await store.count("token_uses")
        let redemptions = try await store.count("redemptions")
        await #expect(throws: StoreError.tokenRevoked) { try await store.connections.redeem(scan(by: cleo)) }
        await #expect(throws: StoreError.tokenRevoked) { try await store.connections.redeem(scan(by: bob)) }
        #expect(try await store.count("token_uses") == uses)
        #expect(try await store.count("redemptions") == redemptions)
        #expect(try await store.count("connections") == 1, "Bob's connection stays")
        let fresh = RedemptionRequest(
            tokenId: "fresh", ownerId: ada.id, scannerId: cleo.id, eventId: nil, issuedAt: validFrom,
            expiresAt: validFrom.addingTimeInterval(300), scannedAt: Date(), clientNonce: nil, maximumUses: 10)
        #expect(try await store.connections.redeem(fresh).created, "a token issued from the reset on redeems")
    }
}
