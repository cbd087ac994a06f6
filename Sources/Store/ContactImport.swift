import ConstellationModel
import Foundation

/// People and the pairs among them, loaded as a new event by `EventRepository.importContacts`:
/// the event (with its join code's hash), a new organizer (with their API key's hash), one
/// profile per person, and each pair's connection at the time of its first contact.
public struct ContactImport: Sendable {
    /// Two people (indices into `people`, different) and when they first met.
    public struct Pair: Sendable, Equatable {
        public let a: Int
        public let b: Int
        public let firstAt: Date

        public init(a: Int, b: Int, firstAt: Date) {
            self.a = a
            self.b = b
            self.firstAt = firstAt
        }
    }

    public let eventId: UUID
    /// The event's fields, checked as `POST /v1/events` checks them.
    public let event: NewEvent
    /// When the event's personal data goes.
    public let purgeOn: Date
    public let organizerName: String
    public let organizerKeyHash: [UInt8]
    /// Display names, one profile each.
    public let people: [String]
    /// Each pair once.
    public let pairs: [Pair]

    public init(
        eventId: UUID, event: NewEvent, purgeOn: Date, organizerName: String, organizerKeyHash: [UInt8],
        people: [String], pairs: [Pair]
    ) {
        precondition(
            pairs.allSatisfy { $0.a != $0.b && people.indices.contains($0.a) && people.indices.contains($0.b) },
            "a pair is two different people")
        self.eventId = eventId
        self.event = event
        self.purgeOn = purgeOn
        self.organizerName = organizerName
        self.organizerKeyHash = organizerKeyHash
        self.people = people
        self.pairs = pairs
    }
}
