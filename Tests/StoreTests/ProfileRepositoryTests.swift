import Foundation
import Store
import TestSupport
import Testing

@Suite(.tier(.database)) struct ProfileRepositoryTests {
    @Test func apiKeyHashAuthenticatesItsProfileOnly() async throws {
        let store = try await StoreFixture.make()
        let hash = (0..<32).map { UInt8($0) }
        let ada = try await store.profiles.create(displayName: "Ada", headline: "Engines", apiKeyHash: hash).profile
        #expect(try await store.profiles.authenticate(apiKeyHash: hash)?.profile == ada)
        #expect(try await store.profiles.authenticate(apiKeyHash: hash.reversed()) == nil)
    }

    @Test func updateChangesOnlyWhatIsGiven() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let renamed = try await store.profiles.update(id: ada.id, displayName: "Ada L.", headline: .some("Analyst"))
        #expect(renamed?.displayName == "Ada L." && renamed?.headline == "Analyst")
        let kept = try await store.profiles.update(id: ada.id, displayName: nil, headline: nil)
        #expect(kept?.displayName == "Ada L." && kept?.headline == "Analyst")
        let cleared = try await store.profiles.update(id: ada.id, displayName: nil, headline: .some(nil))
        #expect(cleared?.headline == nil)
        #expect(try await store.profiles.update(id: UUID(), displayName: "x", headline: nil) == nil)
    }

    @Test func theDatabaseRefusesAnEmptyName() async throws {
        let store = try await StoreFixture.make()
        let refusal = await #expect(throws: PostgresError.self) {
            try await store.profiles.create(displayName: "", headline: nil, apiKeyHash: .init(repeating: 1, count: 32))
        }
        // The table's check constraint, not any other failure of the statement.
        #expect(refusal?.sqlState == "23514", "\(String(describing: refusal))")
        #expect(try await store.count("profiles") == 0)
    }
}
