import Testing
import Tokens

/// Wycheproof Ed25519 verification vectors through our libsodium wrapper.
@Suite struct WycheproofTests {
    struct File: Decodable {
        struct Group: Decodable {
            struct Key: Decodable { let pk: String }
            struct Case: Decodable {
                let tcId: Int
                let msg, sig, result: String
            }
            let publicKey: Key
            let tests: [Case]
        }
        let numberOfTests: Int
        let testGroups: [Group]
    }

    @Test func acceptsEveryValidAndRejectsEveryInvalidSignature() throws {
        let file = try VectorFiles.load("wycheproof/ed25519_test.json", as: File.self)
        var checked = 0
        for group in file.testGroups {
            let key = try PublicKey(bytes: [UInt8](hex: group.publicKey.pk))
            for test in group.tests {
                let valid = key.isValidSignature([UInt8](hex: test.sig), for: [UInt8](hex: test.msg))
                #expect(valid == (test.result == "valid"), "tcId \(test.tcId) expected \(test.result)")
                checked += 1
            }
        }
        #expect(checked == file.numberOfTests)
        #expect(checked == 151)
    }
}
