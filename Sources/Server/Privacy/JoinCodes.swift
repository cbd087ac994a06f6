import ConstellationModel
import Foundation
import Store
import Tokens

/// Events' join codes as this server derives them (`JoinCode.derive`) from the ring's pseudonym
/// key, which a rotation of the signing key leaves alone: every instance computes the same code,
/// and the database holds only each event's rotation counter.
package struct JoinCodes: Sendable {
    private let key: PseudonymKey
    /// The start of join links: `CONSTELLATION_PUBLIC_URL`, else the address the server listens on.
    private let base: String

    init(keyRing: KeyRing, base: String) {
        key = keyRing.eventPseudonyms
        self.base = base
    }

    /// `event`'s code after `rotation` rotations, with its join link, `BASE/#join=SLUG&code=CODE`.
    func current(of event: Event, rotation: Int) throws -> EventJoinCode {
        let code = try JoinCode.derive(key: key, eventId: event.id, rotation: rotation)
        return EventJoinCode(eventId: event.id, joinCode: code, link: link(to: event, code: code))
    }

    /// The join link of `event` with `code` (as given, `XXXX-XXXX` or without its hyphen).
    func link(to event: Event, code: String) -> String {
        let symbols = JoinCode.normalize(code) ?? code
        return "\(base)/#join=\(event.slug)&code=\(symbols.prefix(4))-\(symbols.dropFirst(4))"
    }

    /// What the store checks `text` against `event`'s code with; nil when `text` cannot be a join code.
    func attempt(_ text: String, for event: UUID) throws -> JoinCodeAttempt? {
        guard let given = JoinCode.normalize(text), let legacyHash = try JoinCode.hash(given, eventId: event) else { return nil }
        let key = key
        return JoinCodeAttempt(legacyHash: legacyHash) { rotation in
            (try? JoinCode.derive(key: key, eventId: event, rotation: rotation)).flatMap(JoinCode.normalize) == given
        }
    }
}
