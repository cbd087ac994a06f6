import Foundation

/// Event join codes: short and easy to type (`K7MX-3QPA`, 8 symbols, about 39.6 bits; see
/// `TypedCode`). An event's code is `derive(key:eventId:rotation:)`: the server stores only the
/// rotation counter and computes the code when it is needed, so every instance can show it and a
/// dump without the key reveals nothing. Events made before codes were derived keep
/// `hash(_:eventId:)` of a random code until their first rotation.
public enum JoinCode {
    static let format = TypedCode(length: 8, group: 4)
    public static let length = format.length

    /// Event `eventId`'s code after `rotation` rotations, shown as `XXXX-XXXX`: symbols drawn from
    /// keyed BLAKE2b of the event and the rotation under `key` (the server's pseudonym key), so
    /// that nobody without the key can work out an event's code, nor its next one from this one.
    public static func derive(key: PseudonymKey, eventId: UUID, rotation: Int) throws(TokenError) -> String {
        try format.code { round throws(TokenError) in
            try key.digest(Array("constellation:join-code:v1:\(eventId.uuidString.lowercased()):\(rotation):\(round)".utf8), length: 64)
        }
    }

    /// The code's 8 symbols in upper case, without hyphens or spaces; nil if it cannot be a code.
    public static func normalize(_ text: String) -> String? {
        format.normalize(text)
    }

    /// What the server stores and compares for `code` at event `eventId`: BLAKE2b-256 of the
    /// normalized code, salted with the event's id. Nil when `code` is not a code at all.
    public static func hash(_ code: String, eventId: UUID) throws(TokenError) -> [UInt8]? {
        try format.hash(code, domain: "constellation:join:v1:\(eventId.uuidString.lowercased())")
    }
}
