import Foundation

/// One entry of a contact card: an email address, a phone number (E.164), a link (http or https),
/// an organization or a role, with an optional label (`work`, `mobile`, `linkedin` …) and who may
/// see it.
public struct ContactEntry: Codable, Sendable, Equatable, Hashable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case email, phone, link, organization, role
    }

    /// Who sees an entry besides its owner: their connections, or nobody.
    public enum Audience: String, Codable, Sendable {
        case connections, nobody
    }

    public var kind: Kind
    public var label: String?
    public var value: String
    /// In my own card; absent from what my connections see (it is always `connections` there).
    public var audience: Audience?

    public init(kind: Kind, label: String? = nil, value: String, audience: Audience? = nil) {
        self.kind = kind
        self.label = label
        self.value = value
        self.audience = audience
    }

    /// At most 20 entries a card, one organization and one role; labels up to 40 characters, links up
    /// to 2,000, addresses up to 254, organizations and roles up to 160.
    public static let entriesLimit = 20
    public static let labelLimit = 40
    public static let linkLimit = 2_000
    public static let emailLimit = 254
    public static let textLimit = 160
}

/// `GET` and `PUT /v1/me/card`: my contact card, each entry with its audience. A `PUT` replaces
/// the whole card; an entry without an audience is for nobody.
public struct ContactCard: Codable, Sendable, Equatable {
    public var entries: [ContactEntry]

    public init(entries: [ContactEntry]) {
        self.entries = entries
    }
}
