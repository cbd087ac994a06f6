import Foundation

/// An invitation to organize an event that a person can give (`POST /v1/events/{event}/invitation-links`):
/// a link or code, used once by whoever opens it first and accepts or declines it, until it expires.
/// The code itself is shown once, when it is made (`IssuedInvitationLink`).
public struct InvitationLink: Codable, Sendable, Equatable {
    /// What `DELETE /v1/events/{event}/invitation-links/{id}` withdraws.
    public let id: UUID
    public let eventId: UUID
    /// The organizer who made it; it lapses when they stop organizing the event.
    public let invitedBy: UUID
    public let invitedByName: String
    public let createdAt: Date
    public let expiresAt: Date

    public init(id: UUID, eventId: UUID, invitedBy: UUID, invitedByName: String, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.eventId = eventId
        self.invitedBy = invitedBy
        self.invitedByName = invitedByName
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A new invitation link (201): its code (`XXXXX-XXXXX-XXXXX-XXXXX`) and the address that holds it
/// (`BASE/invitation#code=XXXXX-XXXXX-XXXXX-XXXXX`), shown this once; the server keeps only the code's hash.
public struct IssuedInvitationLink: Codable, Sendable, Equatable {
    public let invitation: InvitationLink
    public let code: String
    public let link: String

    public init(invitation: InvitationLink, code: String, link: String) {
        self.invitation = invitation
        self.code = code
        self.link = link
    }
}

/// `GET /v1/events/{event}/invitations`: what waits for an answer, newest first: the links not yet
/// used, withdrawn or expired, and the invitations made to a profile by its id.
public struct EventInvitations: Codable, Sendable, Equatable {
    public let links: [InvitationLink]
    public let people: [OrganizerInvitation]

    public init(links: [InvitationLink], people: [OrganizerInvitation]) {
        self.links = links
        self.people = people
    }
}

/// What an invitation code opens (`POST /v1/invitation-links/look`), before its holder answers.
public struct InvitationPreview: Codable, Sendable, Equatable {
    public let eventId: UUID
    public let eventSlug: String
    public let eventName: String
    public let invitedByName: String
    public let expiresAt: Date

    public init(eventId: UUID, eventSlug: String, eventName: String, invitedByName: String, expiresAt: Date) {
        self.eventId = eventId
        self.eventSlug = eventSlug
        self.eventName = eventName
        self.invitedByName = invitedByName
        self.expiresAt = expiresAt
    }
}

/// The body of `POST /v1/invitation-links/look`, `…/accept` and `…/decline`: the code
/// (`XXXXX-XXXXX-XXXXX-XXXXX`, any case, with or without its hyphens) or the link that holds it.
public struct InvitationCode: Codable, Sendable, Equatable {
    public let code: String

    public init(code: String) {
        self.code = code
    }
}

/// One of an event's organizers (`GET /v1/events/{event}/organizers`), for its other organizers.
public struct EventOrganizer: Codable, Sendable, Equatable {
    public let profileId: UUID
    public let displayName: String
    /// Since when they are a member of the event.
    public let joinedAt: Date

    public init(profileId: UUID, displayName: String, joinedAt: Date) {
        self.profileId = profileId
        self.displayName = displayName
        self.joinedAt = joinedAt
    }
}

/// An event's organizers, in the order they joined.
public typealias EventOrganizerList = Items<EventOrganizer>
