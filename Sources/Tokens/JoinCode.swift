import Foundation

/// Event join codes: short and easy to type (`K7MX-3QPA`, 8 symbols, about 39.6 bits; see
/// `TypedCode`). The server keeps only `hash(_:eventId:)`.
public enum JoinCode {
    static let format = TypedCode(length: 8, group: 4)
    public static let length = format.length

    /// A new random code, shown as `XXXX-XXXX`.
    public static func generate() throws(TokenError) -> String {
        try format.generate()
    }

    /// A new code for event `eventId` and the hash to store.
    public static func generate(eventId: UUID) throws(TokenError) -> (code: String, hash: [UInt8]) {
        let code = try generate()
        guard let hash = try hash(code, eventId: eventId) else { preconditionFailure("a generated join code is well-formed") }
        return (code, hash)
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
