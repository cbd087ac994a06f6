import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

@Suite(.tier(.database)) struct BlockTests {
    @Test func aBlockRemovesTheConnectionAndRefusesBothDirectionsWithoutWriting() async throws {
        let store = try await StoreFixture.make()
        let blocks = BlockRepository(database: store.database)
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        try await store.connections.redeem(store.request(token: "t1", owner: ada, scanner: bob))
        let (block, created) = try await blocks.block(bob.id, by: ada.id)
        #expect(created && block.profile == bob)
        #expect(try await store.count("connections") == 0)
        #expect(try await store.count("redemptions") == 0, "the redemption went with its connection")
        let uses = try await store.count("token_uses")
        for request in [store.request(token: "t2", owner: ada, scanner: bob), store.request(token: "t3", owner: bob, scanner: ada)] {
            await #expect(throws: StoreError.blocked) { try await store.connections.redeem(request) }
        }
        #expect(try await store.count("token_uses") == uses, "a refused redemption counts no use")
        #expect(try await blocks.block(bob.id, by: ada.id).created == false)
        await #expect(throws: StoreError.selfBlock) { try await blocks.block(ada.id, by: ada.id) }
        await #expect(throws: StoreError.unknownProfile) { try await blocks.block(UUID(), by: ada.id) }
        #expect(try await blocks.blocks(by: ada.id, limit: 50).items.map(\.profile.id) == [bob.id])
        #expect(try await blocks.blocks(by: bob.id, limit: 50).items.isEmpty, "the blocked person is not told who blocked them")
        #expect(try await blocks.unblock(bob.id, by: ada.id))
        #expect(try await blocks.unblock(bob.id, by: ada.id) == false)
        #expect(try await store.connections.redeem(store.request(token: "t4", owner: ada, scanner: bob)).created)
    }

    /// A block and a redemption of the same pair racing: whichever commits first, the pair ends
    /// up blocked and unconnected (a check-then-insert would let the redemption slip through).
    @Test func aBlockRacingARedemptionNeverLeavesTheConnection() async throws {
        let store = try await StoreFixture.make(maximumConnections: 4)
        let blocks = BlockRepository(database: store.database)
        var outcomes: [String: Int] = [:]
        for round in 0..<20 {
            let ada = try await store.profile("Ada \(round)")
            let bob = try await store.profile("Bob \(round)")
            async let redeemed: String = {
                do {
                    _ = try await store.connections.redeem(store.request(token: "race-\(round)", owner: ada, scanner: bob))
                    return "redeemed first"
                } catch StoreError.blocked {
                    return "blocked first"
                }
            }()
            async let blocked = blocks.block(bob.id, by: ada.id)
            let outcome = try await redeemed
            #expect(try await blocked.created)
            outcomes[outcome, default: 0] += 1
            let left = try await store.database.withConnection { connection in
                try connection.query(
                    """
                    SELECT count(*) AS n FROM connections WHERE profile_a = LEAST(\(ada.id), \(bob.id)) AND profile_b = GREATEST(\(ada.id), \(bob.id))
                    """)[0].int("n")
            }
            #expect(left == 0, "round \(round): \(outcome), yet the blocked pair is connected")
        }
        #expect(outcomes.values.reduce(0, +) == 20)
    }
}
