import Foundation

/// A join code someone gave, as the store checks it against an event's: an event's code is derived
/// from its rotation counter with a key the store does not hold (`isCode`); an event made before
/// codes were derived keeps the salted hash of a random one instead (`legacyHash`).
public struct JoinCodeAttempt: Sendable {
    /// The given code's salted hash, compared with an event that has no rotation yet.
    let legacyHash: [UInt8]
    /// Whether the given code is the one derived for this rotation.
    let isCode: @Sendable (_ rotation: Int) -> Bool

    public init(legacyHash: [UInt8], isCode: @escaping @Sendable (_ rotation: Int) -> Bool) {
        self.legacyHash = legacyHash
        self.isCode = isCode
    }

    /// The columns `matches(_:)` reads, for an `events` table aliased `e`.
    static func columns(comparingWith attempt: JoinCodeAttempt) -> SQL {
        "e.join_code_rotation, e.join_code_hash = \(ByteString(attempt.legacyHash)) AS legacy_matches"
    }

    /// Whether the event of `row` (read with `columns(comparingWith: self)`) has this code now.
    func matches(_ row: Row) throws(PostgresError) -> Bool {
        if let rotation = try row.optionalInt("join_code_rotation") { return isCode(rotation) }
        return try row.optionalString("legacy_matches") == "t"
    }
}
