import ConstellationModel
import Store

extension StoreError: ProblemConvertible {
    package var problem: Problem {
        switch self {
        case .tokenUsedUp:
            Problem(
                .tokenUsedUp,
                detail: "Ask for a fresh QR code.")
        case .unknownOwner:
            Problem(.unknownProfile, detail: "The token's owner no longer exists")
        case .selfConnection:
            Problem(.selfConnection)
        case .eventEnded:
            .eventEnded
        case .blocked:
            .blocked
        case .tokenRevoked:
            Problem(.tokenRevoked, detail: "Ask for a fresh QR code.")
        case .unknownProfile:
            Problem(.unknownProfile)
        case .selfBlock:
            Problem(.selfBlock)
        case .unknownEvent:
            .unknownEvent
        case .slugTaken:
            Problem(.slugTaken, detail: "Choose another slug.")
        case .notAnOrganizer:
            .notAnOrganizer
        case .invalidJoinCode:
            Problem(
                .invalidJoinCode,
                detail: "Ask an organizer for the current code (XXXX-XXXX).")
        case .unknownInvitation:
            Problem(
                .unknownInvitation,
                detail: "It was declined, or its organizer no longer organizes the event.")
        case .invitationLinkUnknown:
            Problem(
                .invitationUnknown,
                detail: "Check the code (XXXXX-XXXXX), or ask the organizer for a new invitation.")
        case .invitationLinkUsed:
            Problem(
                .invitationUsed,
                detail: "An invitation works once: ask an organizer for a new one.")
        case .invitationLinkLapsed:
            Problem(
                .invitationLapsed,
                detail: "Ask another organizer for a new one.")
        case .invitationLinkWithdrawn:
            Problem(
                .invitationWithdrawn,
                detail: "Ask an organizer for a new one if it was meant for you.")
        case .invitationLinkExpired:
            Problem(
                .invitationExpired,
                detail: "Ask an organizer for a new one.")
        case .lastOrganizer:
            Problem(
                .lastOrganizer,
                detail: "An event keeps at least one organizer: invite someone to organize it, and step down once they have accepted.")
        case .eventPurged:
            .eventPurged
        case .purgeDateOutOfBounds:
            Problem(
                .validationFailed,
                detail: "purgeOn must be between the earliest and the latest that GET /v1/events/{event}/purge-date gives")
        case .eventNotOver:
            Problem(
                .eventNotOver,
                detail: "An event is purged after its end and the offline grace; until then it can only be given a later date.")
        case .organizerCannotLeave:
            Problem(
                .organizerCannotLeave,
                detail: "Step down first (DELETE /v1/events/{event}/organizers/me): then you can leave it.")
        case .organizerTeamFull:
            Problem(
                .organizerTeamFull,
                detail: "It has \(EventRepository.organizerTeamLimit) organizers, invitations and invitation links already: "
                    + "withdraw an invitation or a link that is not needed, or ask an organizer who is done to step down.")
        case .tooManyViewLinks:
            Problem(
                .tooManyViewLinks,
                detail: "It has \(EventRepository.liveViewLinkLimit) live view links already: "
                    + "revoke a link that is not needed, or show the same link on several screens.")
        case .unknownDeviceLink:
            Problem(
                .deviceLinkUnknown,
                detail: "Check the code, or make a new link on your other device.")
        case .deviceLinkUsed:
            Problem(
                .deviceLinkUsed,
                detail: "A link works once: make a new one on your other device.")
        case .deviceLinkExpired:
            Problem(
                .deviceLinkExpired,
                detail: "Make a new one on your other device.")
        case .unknownRecoveryCode:
            Problem(
                .recoveryCodeUnknown,
                detail: "It may have been used or replaced by a newer one.")
        case .unknownDevice:
            .deviceNotFound
        case .lastDevice:
            Problem(
                .lastDevice,
                detail: "Without a device you can only come back with a recovery code; add ?confirm=last-device if you mean it.")
        case .tooManyDevices:
            Problem(
                .tooManyDevices,
                detail: "It has \(DeviceRepository.liveDeviceLimit) devices signed in already: sign out a device you no longer use "
                    + "first (DELETE /v1/me/devices/{id}); a recovery code always works.")
        }
    }
}
