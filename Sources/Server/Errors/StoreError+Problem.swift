import ConstellationModel
import Store

extension StoreError: ProblemConvertible {
    package var problem: Problem {
        switch self {
        case .tokenUsedUp:
            Problem(
                status: 409, code: "token_used_up", title: "This token has been redeemed by as many people as it may be",
                detail: "Ask for a fresh QR code.")
        case .unknownOwner:
            Problem(status: 404, code: "unknown_profile", title: "The token's owner no longer exists")
        case .selfConnection:
            Problem(status: 422, code: "self_connection", title: "You cannot connect to yourself")
        case .eventEnded:
            .eventEnded
        case .blocked:
            .blocked
        case .tokenRevoked:
            Problem(status: 401, code: "token_revoked", title: "Its owner has revoked this token", detail: "Ask for a fresh QR code.")
        case .unknownProfile:
            Problem(status: 404, code: "unknown_profile", title: "No such profile")
        case .selfBlock:
            Problem(status: 422, code: "self_block", title: "You cannot block yourself")
        case .unknownEvent:
            .unknownEvent
        case .slugTaken:
            Problem(status: 409, code: "slug_taken", title: "Another event has this slug", detail: "Choose another slug.")
        case .notAnOrganizer:
            .notAnOrganizer
        case .invalidJoinCode:
            Problem(
                status: 403, code: "invalid_join_code", title: "The join code is not this event's",
                detail: "Ask an organizer for the current code (XXXX-XXXX).")
        case .unknownInvitation:
            Problem(
                status: 404, code: "unknown_invitation", title: "No invitation to organize this event is waiting for you",
                detail: "It was declined, or its organizer no longer organizes the event.")
        case .invitationLinkUnknown:
            Problem(
                status: 404, code: "invitation_unknown", title: "No invitation has this code",
                detail: "Check the code (XXXXX-XXXXX), or ask the organizer for a new invitation.")
        case .invitationLinkUsed:
            Problem(
                status: 410, code: "invitation_used", title: "This invitation was answered already",
                detail: "An invitation works once: ask an organizer for a new one.")
        case .invitationLinkLapsed:
            Problem(
                status: 410, code: "invitation_lapsed", title: "The organizer who made this invitation no longer organizes the event",
                detail: "Ask another organizer for a new one.")
        case .invitationLinkWithdrawn:
            Problem(
                status: 410, code: "invitation_withdrawn", title: "An organizer withdrew this invitation",
                detail: "Ask an organizer for a new one if it was meant for you.")
        case .invitationLinkExpired:
            Problem(
                status: 410, code: "invitation_expired", title: "This invitation has expired",
                detail: "Ask an organizer for a new one.")
        case .lastOrganizer:
            Problem(
                status: 409, code: "last_organizer", title: "You are the event's only organizer",
                detail: "An event keeps at least one organizer: invite someone to organize it, and step down once they have accepted.")
        case .eventPurged:
            .eventPurged
        case .purgeDateOutOfBounds:
            Problem(
                status: 422, code: "validation_failed", title: "A field is not valid",
                detail: "purgeOn must be between the earliest and the latest that GET /v1/events/{event}/purge-date gives")
        case .eventNotOver:
            Problem(
                status: 409, code: "event_not_over", title: "This event's codes still redeem",
                detail: "An event is purged after its end and the offline grace; until then it can only be given a later date.")
        case .organizerCannotLeave:
            Problem(
                status: 409, code: "organizer_cannot_leave", title: "You organize this event",
                detail: "Step down first (DELETE /v1/events/{event}/organizers/me): then you can leave it.")
        case .organizerTeamFull:
            Problem(
                status: 409, code: "organizer_team_full",
                title: "This event has \(EventRepository.organizerTeamLimit) organizers, invitations and invitation links already",
                detail: "Withdraw an invitation or a link that is not needed, or ask an organizer who is done to step down.")
        case .tooManyViewLinks:
            Problem(
                status: 409, code: "too_many_view_links",
                title: "This event has \(EventRepository.liveViewLinkLimit) live view links already",
                detail: "Revoke a link that is not needed, or show the same link on several screens.")
        case .unknownDeviceLink:
            Problem(
                status: 404, code: "device_link_unknown", title: "No device link has this code",
                detail: "Check the code, or make a new link on your other device.")
        case .deviceLinkUsed:
            Problem(
                status: 409, code: "device_link_used", title: "This device link was used already",
                detail: "A link works once: make a new one on your other device.")
        case .deviceLinkExpired:
            Problem(
                status: 410, code: "device_link_expired", title: "This device link has expired",
                detail: "Make a new one on your other device.")
        case .unknownRecoveryCode:
            Problem(
                status: 404, code: "recovery_code_unknown", title: "No profile has this recovery code",
                detail: "It may have been used or replaced by a newer one.")
        case .unknownDevice:
            .deviceNotFound
        case .lastDevice:
            Problem(
                status: 409, code: "last_device", title: "This is your profile's last device",
                detail: "Without a device you can only come back with a recovery code; add ?confirm=last-device if you mean it.")
        case .tooManyDevices:
            Problem(
                status: 409, code: "too_many_devices",
                title: "This profile has \(DeviceRepository.liveDeviceLimit) devices signed in already",
                detail: "Sign out a device you no longer use first (DELETE /v1/me/devices/{id}); a recovery code always works.")
        }
    }
}
