import Foundation
import Store
import Tokens

/// How an event's organizers see its people: never by profile id. Each person has a node id at
/// each event, `p` and 16 base32 symbols of a keyed BLAKE2b of (event, profile) under a server
/// secret: stable across requests, unrelated across events (two events' views cannot be joined),
/// and not computable by someone who knows the profile id. The label is the person's display
/// name if they chose `named` at this event, else `Attendee` and the first 6 symbols. The room (a
/// wall) knows each person by another id, of the same kind but keyed apart, so that nothing a wall's
/// reader is sent matches an organizer's pseudonym or the rows of an organizer's export.
/// The secret is the ring's `eventPseudonyms`, which a rotation of the signing key leaves alone.
package struct EventIdentity: Sendable {
    /// What an organizer sees of one person.
    package struct Face: Sendable, Equatable {
        let id: String
        let label: String
        /// Whether `label` is the pseudonym (the person is not named to this reader).
        let pseudonymous: Bool
    }

    private let keyRing: KeyRing

    package init(keyRing: KeyRing) {
        self.keyRing = keyRing
    }

    /// The faces of everyone in `graph` at `event`, by profile id: with `showingNames` (an
    /// organizer's view), by name those who chose `named`, everyone else by pseudonym; without (a
    /// wall, for the room), by name only those who chose to be on the wall by name, and everyone
    /// else by no label at all (the room reads no pseudonym).
    func faces(of people: [EventGraph.Person], at event: UUID, showingNames: Bool = true) throws -> [UUID: Face] {
        try faces(
            of: people.map { person in
                (person.id, (showingNames ? person.visibility == .named : person.onWall) ? person.displayName : nil)
            }, at: event, pseudonymLabels: showingNames)
    }

    /// The faces of the people of `pairs` (a live feed's) at `event`, by profile id, as
    /// `faces(of:at:showingNames:)` names them.
    func faces(of pairs: [FedPair], at event: UUID, showingNames: Bool) throws -> [UUID: Face] {
        try faces(
            of: pairs.flatMap { [($0.a, showingNames ? $0.nameA : $0.wallNameA), ($0.b, showingNames ? $0.nameB : $0.wallNameB)] },
            at: event, pseudonymLabels: showingNames)
    }

    /// The faces of `people` at `event`, by profile id: each shown by `namedAs` if they chose to be
    /// named (non-nil), else by pseudonym, or by an empty label without `pseudonymLabels`. Every
    /// event view (network, stats, summary, streams) uses this.
    func faces(of people: [(id: UUID, namedAs: String?)], at event: UUID, pseudonymLabels: Bool = true) throws -> [UUID: Face] {
        let key = keyRing.eventPseudonyms
        let eventBytes = (pseudonymLabels ? [] : Self.roomDomain) + Self.bytes(of: event)
        var faces: [UUID: Face] = [:]
        faces.reserveCapacity(people.count)
        for person in people {
            let symbols = Self.base32(try key.digest(eventBytes + Self.bytes(of: person.id), length: 16).prefix(10))
            faces[person.id] = Face(
                id: "p" + symbols.lowercased(), label: person.namedAs ?? (pseudonymLabels ? "Attendee " + symbols.prefix(6) : ""),
                pseudonymous: person.namedAs == nil)
        }
        return faces
    }

    /// What the room's ids are keyed with before the event: the digest's input is then of
    /// another length, so no room id is an organizer's.
    private static let roomDomain = Array("room".utf8)

    private static func bytes(of id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// RFC 4648 base32 without padding (10 bytes: 16 symbols).
    private static func base32(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }
}
