import Testing
import Tokens

@Suite struct APIKeyTests {
    /// Unkeyed BLAKE2b-256 known answers: the RFC 7693 / reference-implementation values for ""
    /// and "abc", and one for a key of the real shape computed apart (Python's
    /// `hashlib.blake2b(key, digest_size=32)`). A keyed or differently sized hash fails them.
    @Test(arguments: [
        ("", "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"),
        ("abc", "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319"),
        ("cst_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", "072caa06eb89ed949def41a287b70dbc34caa9447fde833f324fdb2b13b5a212"),
    ])
    func hashIsUnkeyedBLAKE2b256(input: String, expected: String) throws {
        #expect(try APIKey.hash(input) == [UInt8](hex: expected))
    }

    @Test func aNewKeyIsWellFormedAndComesWithItsHash() throws {
        let (key, hash) = try APIKey.generate()
        #expect(APIKey.isWellFormed(key))
        #expect(hash == (try APIKey.hash(key)))
        #expect(try APIKey.generate().key != key)
    }
}
