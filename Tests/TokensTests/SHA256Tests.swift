import Testing
import Tokens

/// SHA-256 (FIPS 180-4's examples), whole and fed in pieces.
@Suite struct SHA256Tests {
    @Test func knownDigestsWholeAndInPieces() throws {
        #expect(try SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        let hasher = try SHA256()
        for piece in stride(from: 0, to: message.count, by: 7) { hasher.add(Array(message[piece..<min(piece + 7, message.count)])) }
        #expect(hasher.hex() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
