import ConstellationModel
import Foundation
import Testing

/// A minted token's JSON is written by hand (`IssuedToken.jsonBytes`): it must be the encoder's
/// bytes exactly, with and without its optional fields, whatever its strings hold.
@Suite struct IssuedTokenJSONTests {
    @Test(
        arguments: [
            (nil, nil, "hQ2x9Kk1fP0a"),
            (UUID(), "https://connect.example.org/c#v4.public.abc", "hQ2x9Kk1fP0a"),
            (UUID(), nil, "hQ2x9Kk1fP0a"),
            (nil, "https://x.test/c#\u{1}\u{1f}\"quoted\"\\slash/é😀", "tab\tline\nreturn\r\u{8}\u{c}\u{7f}"),
        ] as [(UUID?, String?, String)])
    func writtenByHandAsTheEncoderWritesIt(eventId: UUID?, link: String?, tokenId: String) throws {
        let token = IssuedToken(
            token: "v4.public.eyJzIjoiIn0", tokenId: tokenId, issuedAt: Date(timeIntervalSince1970: 1_795_000_000),
            expiresAt: Date(timeIntervalSince1970: 1_795_000_300), eventId: eventId, link: link)
        if eventId != nil, link != nil { #expect(FullyPopulated.nilFields(in: token) == [], "one case sets every field") }
        let written = token.jsonBytes()
        #expect(written == Array(try JSONEncoder.constellation.encode(token)), "\(String(decoding: written, as: UTF8.self))")
        let back = try JSONDecoder.constellation.decode(IssuedToken.self, from: Data(written))
        #expect(back.eventId == eventId && back.link == link && back.tokenId == tokenId && back.expiresAt == token.expiresAt)
    }
}
