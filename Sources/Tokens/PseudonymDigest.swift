import Foundation

/// The digest behind a person's pseudonym at an event: BLAKE2b-128 of the event's id and the
/// profile's id, with a domain tag. Deterministic, so a person keeps one pseudonym per event, and
/// different at each event, so pseudonyms cannot be matched across events.
public enum PseudonymDigest {
    public static func digest(profile: UUID, event: UUID) throws(TokenError) -> [UInt8] {
        let input = "constellation:pseudonym:v1:\(event.uuidString.lowercased()):\(profile.uuidString.lowercased())"
        return try Sodium.blake2b(Array(input.utf8), length: 16)
    }
}
