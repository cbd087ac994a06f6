import Foundation
import Testing
import Tokens

/// The official PASETO v4 and PASERK k4 vectors (paseto-standard/test-vectors).
@Suite struct PASETOVectorTests {
    struct PASETOFile: Decodable {
        struct Vector: Decodable {
            let name: String
            let expectFail: Bool
            let publicKey: String?
            let secretKeySeed: String?
            let key: String?
            let token: String
            let payload: String?
            let footer: String
            let implicitAssertion: String
            enum CodingKeys: String, CodingKey {
                case name, key, token, payload, footer
                case expectFail = "expect-fail", publicKey = "public-key", secretKeySeed = "secret-key-seed"
                case implicitAssertion = "implicit-assertion"
            }
        }
        let tests: [Vector]
    }

    struct PASERKFile: Decodable {
        struct Vector: Decodable {
            let name: String
            let expectFail: Bool
            let key: String?
            let secretKeySeed: String?
            let paserk: String?
            enum CodingKeys: String, CodingKey {
                case name, key, paserk
                case expectFail = "expect-fail", secretKeySeed = "secret-key-seed"
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

    /// Every vector we cannot or must not accept: the must-fail ones, and all v4.local tokens
    /// (this implementation is public-only, so a local token is never a valid connection token).
    @Test(arguments: v4.filter { $0.expectFail || !$0.token.hasPrefix("v4.public.") })
    func refusesEveryOtherVector(vector: PASETOFile.Vector) throws {
        let keyHex = try #require(vector.publicKey ?? vector.key)
        let key = try PublicKey(bytes: [UInt8](hex: keyHex))
        #expect(throws: TokenError.self) {
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
        #expect(vectors.count >= 3)
        for vector in vectors {
            let bytes = [UInt8](hex: try #require(vector.key))
            if vector.expectFail {
                #expect(throws: TokenError.self, "\(vector.name)") {
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
        #expect(vectors.count >= 3)
        for vector in vectors {
            let bytes = [UInt8](hex: try #require(vector.key))
            if vector.expectFail {
                #expect(throws: TokenError.self, "\(vector.name)") { try PASERK.publicId(of: PublicKey(bytes: bytes)) }
            } else {
                #expect(try PASERK.publicId(of: PublicKey(bytes: bytes)) == vector.paserk, "\(vector.name)")
            }
        }
    }

    @Test func secretPASERKVectors() throws {
        let vectors = try VectorFiles.load("paseto/PASERK/k4.secret.json", as: PASERKFile.self).tests
        #expect(vectors.count >= 3)
        for vector in vectors {
            let bytes = [UInt8](hex: try #require(vector.key))
            if vector.expectFail {
                #expect(throws: TokenError.self, "\(vector.name)") {
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
