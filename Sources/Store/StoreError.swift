/// A request the store refused by its rules (not a failure to reach or use PostgreSQL, which is
/// `PostgresError`). Nothing was written. The HTTP layer gives each code its status and message.
public enum StoreError: Error, Equatable, Sendable, CaseIterable {
    // Redemptions.
    /// The token has been redeemed by as many people as it may be.
    case tokenUsedUp
    /// The token's owner no longer exists.
    case unknownOwner
    /// A profile cannot connect to itself.
    case selfConnection
    /// The token's event ended longer ago than the offline grace.
    case eventEnded
    /// One of the two has blocked the other.
    case blocked
    /// The token was issued before its owner's QR reset (`tokens_valid_from`).
    case tokenRevoked

    // Profiles and blocks.
    /// No profile has that id.
    case unknownProfile
    /// A profile cannot block itself.
    case selfBlock

    // Events.
    /// No event has that id (or the token names one that does not exist).
    case unknownEvent
    /// Another event already has this slug.
    case slugTaken
    /// The caller is not an organizer of the event.
    case notAnOrganizer
    /// The join code is not the event's current one.
    case invalidJoinCode
    /// No invitation to organize the event stands for the caller.
    case unknownInvitation
    /// No invitation link has that code.
    case invitationLinkUnknown
    /// The invitation link was answered already: a link works once.
    case invitationLinkUsed
    /// The organizer who made the invitation link no longer organizes the event.
    case invitationLinkLapsed
    /// An organizer withdrew the invitation link.
    case invitationLinkWithdrawn
    /// The invitation link expired unanswered.
    case invitationLinkExpired
    /// The caller is the event's only organizer: an event keeps at least one.
    case lastOrganizer
    /// The event was purged: only its record is left.
    case eventPurged
    /// The purge date is outside what the event allows (before its end and the offline grace, or
    /// past the server's longest keeping).
    case purgeDateOutOfBounds
    /// The event's end and the offline grace have not passed: it cannot be purged yet.
    case eventNotOver
    /// An organizer leaves an event by stepping down first.
    case organizerCannotLeave
    /// The event's organizers, the people invited to organize it and its waiting invitation links
    /// number `EventRepository.organizerTeamLimit` already.
    case organizerTeamFull
    /// The event has `EventRepository.liveViewLinkLimit` live view links already.
    case tooManyViewLinks

    // Devices.
    /// No device link has that code.
    case unknownDeviceLink
    /// The device link was used already: a link works once.
    case deviceLinkUsed
    /// The device link expired unused.
    case deviceLinkExpired
    /// No profile has that recovery code (never had, or it was used or replaced).
    case unknownRecoveryCode
    /// The caller has no live device with that id.
    case unknownDevice
    /// It is the profile's last live key, and the caller did not say it meant that.
    case lastDevice
    /// The profile holds `DeviceRepository.liveDeviceLimit` live devices already.
    case tooManyDevices
}
