import ConstellationModel
import Foundation
import Testing

/// A redemption's JSON is written by hand (`Redemption.jsonBytes`): it must be the encoder's bytes
/// exactly, with and without each optional field, whatever its strings hold.
@Suite struct RedemptionJSONTests {
    static let awkward = "tab\tline\nreturn\r\u{8}\u{c}\u{7f}\u{1}\u{1f}\"quoted\"\\slash/é😀"

    @Test(
        arguments: [
            (nil, nil, nil, nil, nil, false),
            ("nonce-1", "A headline", UUID(), "RustConf", "a note", true),
            (awkward, awkward, nil, awkward, awkward, true),
            (nil, nil, UUID(), nil, nil, false),
        ] as [(String?, String?, UUID?, String?, String?, Bool)])
    func writtenByHandAsTheEncoderWritesIt(
        nonce: String?, headline: String?, eventId: UUID?, eventName: String?, note: String?, withTags: Bool
    ) throws {
        let peer = Profile(id: UUID(), displayName: Self.awkward, headline: headline, createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        let connection = Connection(
            id: .max, peer: peer, connectedAt: Date(timeIntervalSince1970: 1_795_000_300.75), eventId: eventId, eventName: eventName,
            note: note, tags: withTags ? ["one", Self.awkward, ""] : nil,
            card: withTags
                ? [
                    ContactEntry(kind: .email, label: "work", value: "ada@engines.example", audience: note == "a note" ? .nobody : nil),
                    ContactEntry(kind: .role, label: note == "a note" ? "now" : nil, value: Self.awkward, audience: .connections),
                ] : eventId == nil ? nil : [])
        for created in [true, false] {
            let redemption = Redemption(connection: connection, created: created, clientNonce: nonce)
            if nonce == "nonce-1" { #expect(FullyPopulated.nilFields(in: redemption) == [], "one case sets every field") }
            let written = redemption.jsonBytes()
            #expect(written == Array(try JSONEncoder.constellation.encode(redemption)), "\(String(decoding: written, as: UTF8.self))")
            let back = try JSONDecoder.constellation.decode(Redemption.self, from: Data(written))
            #expect(
                back.clientNonce == nonce && back.created == created && back.connection.peer == peer
                    && back.connection.tags == connection.tags && back.connection.card == connection.card)
        }
    }
}
