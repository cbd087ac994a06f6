import Foundation
import Testing
import Tokens

/// The official PASETO v4 and PASERK k4 vectors (paseto-standard/test-vectors).
@Suite struct PASETOVectorTests {
    struct PASETOFile: Decodable {
        struct Vector: Decodable {
            let name: String
            let expectFail: Bool
            let publicKey, secretKeySeed, key: String?
            let token: String
            let payload: String?
            let footer, implicitAssertion: String
            enum CodingKeys: String, CodingKey {
                case name, key, token, payload, footer
                case expectFail = "expect-fail"
                case publicKey = "public-key"
                case secretKeySeed = "secret-key-seed"
                case implicitAssertion = "implicit-assertion"
            }
        }
        let tests: [Vector]
    }

    struct PASERKFile: Decodable {
        struct Vector: Decodable {
            let name: String
            let expectFail: Bool
            let key, secretKeySeed, paserk: String?
            enum CodingKeys: String, CodingKey {
                case name, key, paserk
                case expectFail = "expect-fail"
                case secretKeySeed = "secret-key-seed"
            }
        }
        let tests: [Vector]
    }

    static let v4: [PASETOFile.Vector] = (try? VectorFiles.load("paseto/v4.json", as: PASETOFile.self).tests) ?? []

    @Test func vectorFileIsComplete() {
        #expect(Self.v4.count == 17)
    }

    @Test(arguments: v4.filter { $0.token.hasPrefix("v4.public.") && !$0.expectFail })
    func signsAndVerifiesPublicVectors(vector: PASETOFile.Vector) throws {
        let key = try SigningKey(seed: [UInt8](hex: try #require(vector.secretKeySeed)))
        #expect(key.publicKey.bytes == [UInt8](hex: try #require(vector.publicKey)))
        let token = try PASETOv4Public.sign(
            message: Array(try #require(vector.payload).utf8), footer: Array(vector.footer.utf8),
            implicitAssertion: Array(vector.implicitAssertion.utf8), key: key
        )
        #expect(token == vector.token)
        let parts = try PASETOv4Public.verify(
            vector.token, implicitAssertion: Array(vector.implicitAssertion.utf8), key: key.publicKey)
        #expect(String(decoding: parts.message, as: UTF8.self) == vector.payload)
        #expect(String(decoding: parts.footer, as: UTF8.self) == vector.footer)
    }

    /// Why each vector we cannot or must not accept is refused: the must-fail ones, and all
    /// v4.local tokens (this implementation is public-only, so a local token is never a valid
    /// connection token). A vector refused for another reason fails its test.
    static let refusals: [String: TokenError] = {
        var refusals = Dictionary(uniqueKeysWithValues: (1...9).map { ("4-E-\($0)", TokenError.unsupportedVersion("v4.local")) })
        refusals["4-F-1"] = .unsupportedVersion("v4.local")  // a local token given a public key
        refusals["4-F-2"] = .invalidSignature  // a public token checked against a local key
        refusals["4-F-3"] = .unsupportedVersion("v3.local")  // another version
        refusals["4-F-4"] = .unsupportedVersion("v4.local")
        refusals["4-F-5"] = .unsupportedVersion("v4.local")
        return refusals
    }()

    @Test func everyRefusedVectorHasItsReason() {
        let refused = Self.v4.filter { $0.expectFail || !$0.token.hasPrefix("v4.public.") }.map(\.name)
        #expect(Set(refused) == Set(Self.refusals.keys))
    }

    @Test(arguments: v4.filter { $0.expectFail || !$0.token.hasPrefix("v4.public.") })
    func refusesEveryOtherVectorForItsReason(vector: PASETOFile.Vector) throws {
        let expected = try #require(Self.refusals[vector.name])
        let keyHex = try #require(vector.publicKey ?? vector.key)
        let key = try PublicKey(bytes: [UInt8](hex: keyHex))
        #expect(throws: expected) {
            try PASETOv4Public.verify(vector.token, implicitAssertion: Array(vector.implicitAssertion.utf8), key: key)
        }
    }

    @Test func publicVectorFailsWithAnotherImplicitAssertion() throws {
        let vector = try #require(Self.v4.first { $0.name == "4-S-3" })
        let key = try PublicKey(bytes: [UInt8](hex: try #require(vector.publicKey)))
        #expect(throws: TokenError.invalidSignature) {
            try PASETOv4Public.verify(vector.token, implicitAssertion: Array("{}".utf8), key: key)
        }
    }

    @Test func publicPASERKVectors() throws {
        let vectors = try VectorFiles.load("paseto/PASERK/k4.public.json", as: PASERKFile.self).tests
        #expect(vectors.count == 4)
        for vector in vectors {
            let bytes = [UInt8](hex: try #require(vector.key))
            if vector.expectFail {
                // k4.public-fail-1 is a 49-byte (v3) key: refused for its length.
                #expect(throws: TokenError.invalidKey("an Ed25519 public key is 32 bytes, not \(bytes.count)"), "\(vector.name)") {
                    try PASERK.decodePublicKey(PASERK.publicPrefix + Base64URL.encode(bytes))
                }
            } else {
                let key = try PublicKey(bytes: bytes)
                #expect(PASERK.encode(key) == vector.paserk, "\(vector.name)")
                #expect(try PASERK.decodePublicKey(try #require(vector.paserk)) == key)
            }
        }
    }

    @Test func publicIdPASERKVectors() throws {
        let vectors = try VectorFiles.load("paseto/PASERK/k4.pid.json", as: PASERKFile.self).tests
        #expect(vectors.count == 5)
        for vector in vectors {
            let bytes = [UInt8](hex: try #require(vector.key))
            if vector.expectFail {
                // k4.pid-fail-1 is a short key, k4.pid-fail-2 a 49-byte (v3) one: refused for their length.
                let expected = TokenError.invalidKey("an Ed25519 public key is 32 bytes, not \(bytes.count)")
                #expect(throws: expected, "\(vector.name)") { try PASERK.publicId(of: PublicKey(bytes: bytes)) }
            } else {
                #expect(try PASERK.publicId(of: PublicKey(bytes: bytes)) == vector.paserk, "\(vector.name)")
            }
        }
    }

    @Test func secretPASERKVectors() throws {
        let vectors = try VectorFiles.load("paseto/PASERK/k4.secret.json", as: PASERKFile.self).tests
        #expect(vectors.count == 5)
        for vector in vectors {
            let bytes = [UInt8](hex: try #require(vector.key))
            if vector.expectFail {
                // k4.secret-fail-1 is a short key, k4.secret-fail-2 a 48-byte (v3) one: refused for their length.
                #expect(throws: TokenError.invalidKey("a k4.secret key is 64 bytes"), "\(vector.name)") {
                    try PASERK.decodeSigningKey(PASERK.secretPrefix + Base64URL.encode(bytes))
                }
            } else {
                let key = try SigningKey(seed: [UInt8](hex: try #require(vector.secretKeySeed)))
                #expect(PASERK.encode(key) == vector.paserk, "\(vector.name)")
                let decoded = try PASERK.decodeSigningKey(try #require(vector.paserk))
                #expect(decoded.publicKey == key.publicKey)
            }
        }
    }
}
