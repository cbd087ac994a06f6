import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    /// An organizer invites someone to organize the event with them; the role is theirs only once they accept.
    struct Invite: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite someone to organize the event with you (organizers only); they accept with `event accept`.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Argument(help: "The profile id of the person to invite (from `constellation connections`).")
        var profile: UUID

        func run(in session: Session) async throws {
            let invitation = try await EventCommand.asOrganizer(of: event) {
                try await session.client.inviteOrganizer(profile, to: event)
            }
            if options.json { return try Terminal.printJSON(invitation) }
            guard let invitation else { return Terminal.print("\(profile) organizes \(event) already.") }
            Terminal.print(
                "Invited: they organize \(invitation.eventName) once they run `constellation event accept \(event)`.")
        }
    }

    /// The invitations to organize an event that wait for my answer.
    struct Invitations: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "The invitations to organize an event that wait for your answer.")

        @OptionGroup var options: GlobalOptions

        func run(in session: Session) async throws {
            let list = try await session.client.invitations()
            if options.json { return try Terminal.printJSON(list) }
            guard !list.items.isEmpty else { return Terminal.print("No invitation waits for you.") }
            for item in list.items {
                Terminal.print(
                    "\(item.eventName) (\(item.eventId)), from \(item.invitedByName): `constellation event accept \(item.eventId)`")
            }
        }
    }

    /// Accepts or declines my invitation to organize an event.
    struct Answer: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "accept", abstract: "Accept your invitation to organize the event (`--decline` to say no).")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Flag(help: "Decline instead: nothing changes, and the invitation is gone.")
        var decline = false

        func run(in session: Session) async throws {
            if decline {
                try await session.client.declineInvitation(to: event)
                return Terminal.print("Declined.")
            }
            let member = try await session.client.acceptInvitation(to: event)
            if options.json { return try Terminal.printJSON(member) }
            Terminal.print("You organize \(event) now.")
        }
    }
}
