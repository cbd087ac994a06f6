import Foundation

/// One new pair in an event's live feed: `event: connection` on `GET /v1/events/{event}/stream`
/// (Server-Sent Events). The people are as the event's network shows them to its organizers:
/// a per-event pseudonymous id, and a name only for those who chose to be named there.
public struct LiveConnection: Codable, Sendable, Equatable {
    public struct Person: Codable, Sendable, Equatable {
        public let id: String
        public let label: String
        /// Whether `label` is a pseudonym rather than a name.
        public let pseudonymous: Bool

        public init(id: String, label: String, pseudonymous: Bool) {
            self.id = id
            self.label = label
            self.pseudonymous = pseudonymous
        }
    }

    /// The pair's number in the event (it grows as pairs are recorded).
    public let seq: Int64
    /// When the two first connected at the event.
    public let at: Date
    public let source: Person
    public let target: Person

    public init(seq: Int64, at: Date, source: Person, target: Person) {
        self.seq = seq
        self.at = at
        self.source = source
        self.target = target
    }
}
