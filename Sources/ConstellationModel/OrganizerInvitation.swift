import Foundation

/// An invitation to organize an event (`POST /v1/events/{event}/organizers`, 202): the invitee
/// becomes an organizer only by accepting it (`POST /v1/me/invitations/{event}`).
public struct OrganizerInvitation: Codable, Sendable, Equatable {
    public let eventId: UUID
    public let eventName: String
    public let profileId: UUID
    /// The invitee's name.
    public let profileName: String
    public let invitedBy: UUID
    public let invitedByName: String
    public let createdAt: Date

    public init(
        eventId: UUID, eventName: String, profileId: UUID, profileName: String, invitedBy: UUID, invitedByName: String, createdAt: Date
    ) {
        self.eventId = eventId
        self.eventName = eventName
        self.profileId = profileId
        self.profileName = profileName
        self.invitedBy = invitedBy
        self.invitedByName = invitedByName
        self.createdAt = createdAt
    }
}

/// `GET /v1/me/invitations`: the invitations waiting for my answer, newest first.
public typealias OrganizerInvitationList = Page<OrganizerInvitation>
