import Foundation
import Store
import Testing

/// Text UUIDs read by hand (`PostgresUUID`), against Foundation's parser on the same text.
@Suite struct PostgresUUIDTests {
    @Test func readsWhatFoundationReads() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(PostgresUUID.parse(uuid.uuidString.lowercased()) == uuid)
            #expect(PostgresUUID.parse(uuid.uuidString) == uuid)
        }
        #expect(PostgresUUID.parse("00000000-0000-0000-0000-000000000000") == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        #expect(PostgresUUID.parse("ffffffff-ffff-ffff-ffff-ffffffffffff") == UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"))
    }

    @Test(arguments: [
        "", "not a uuid", "6ba7b810-9dad-11d1-80b4-00c04fd430c", "6ba7b810-9dad-11d1-80b4-00c04fd430c80",
        "6ba7b8109-dad-11d1-80b4-00c04fd430c8", "6ba7b810-9dad-11d1-80b4_00c04fd430c8", "6ba7b810-9dad-11d1-80b4-00c04fd430cg",
        "{6ba7b810-9dad-11d1-80b4-00c04fd430c}", "6ba7b810-9dad-11d1-80b4-00c04fd430ç", "6ba7b8109dad11d180b400c04fd430c8",
    ])
    func refusesWhatIsNotOne(_ text: String) {
        #expect(PostgresUUID.parse(text) == nil)
        #expect(UUID(uuidString: text) == nil, "Foundation refuses it too")
    }
}
