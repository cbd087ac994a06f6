import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    /// An organizer invites someone to organize the event with them, by a link or code to give
    /// them, or by their profile id; the role is theirs only once they accept.
    struct Invite: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite someone to organize the event with you (organizers only): a link or code to give them.",
            discussion: """
                Without PROFILE, makes an invitation link and its code, which work once, for a week by default \
                (CONSTELLATION_INVITATION_HOURS): send the link, or read out the code; they open it in a browser, or \
                run `constellation event accept --code CODE`. With PROFILE (a profile id, from `constellation \
                connections`), invites that profile; they see it on their page, or with `event invitations`.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Argument(help: "A profile id to invite, instead of making a link.")
        var profile: UUID?

        func run(in session: Session) async throws {
            let client = session.client
            guard let profile else {
                let issued = try await EventCommand.asOrganizer(of: event) { try await client.createInvitationLink(to: event) }
                if options.json { return try Terminal.printJSON(issued) }
                let shown = try await client.event(event)
                return Terminal.print(
                    """
                    Invitation to organize \(shown.name), until \(EventCommand.localTime(issued.invitation.expiresAt, in: TimeZone(identifier: shown.timeZone) ?? .gmt)), once:
                      link: \(issued.link)
                      code: \(issued.code)
                    Whoever opens it first accepts or declines it; withdraw it with `constellation event invitations \(event) --withdraw \(issued.invitation.id.uuidString.lowercased())`.
                    """)
            }
            let invitation = try await EventCommand.asOrganizer(of: event) { try await client.inviteOrganizer(profile, to: event) }
            if options.json { return try Terminal.printJSON(invitation) }
            guard let invitation else { return Terminal.print("\(profile) organizes \(event) already.") }
            Terminal.print(
                "Invited \(invitation.profileName): they organize \(invitation.eventName) once they run `constellation event accept \(event)`."
            )
        }
    }

    /// The invitations that wait for my answer; or, for an event I organize, those that wait for
    /// someone else's, one of which I may withdraw.
    struct Invitations: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "The invitations to organize an event that wait for your answer; with SLUG, those of an event you organize.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "An event you organize: list (or withdraw) its invitations instead.")
        var event: String?

        @Option(help: ArgumentHelp("Withdraw this invitation: a link's id, or the invited profile's id, as listed.", valueName: "id"))
        var withdraw: UUID?

        func validate() throws {
            if withdraw != nil, event == nil { throw ValidationError("--withdraw goes with the event's slug.") }
        }

        func run(in session: Session) async throws {
            let client = session.client
            guard let event else { return try await mine(session) }
            let pending = try await EventCommand.asOrganizer(of: event) { try await client.pendingInvitations(to: event) }
            if let withdraw {
                if pending.links.contains(where: { $0.id == withdraw }) {
                    try await client.withdrawInvitationLink(withdraw, of: event)
                } else if pending.people.contains(where: { $0.profileId == withdraw }) {
                    try await client.withdrawInvitation(to: event, of: withdraw)
                } else {
                    throw CommandFailure.data("\(event) has no invitation \(withdraw.uuidString.lowercased()) waiting for an answer")
                }
                return Terminal.print("Withdrawn: it no longer works.")
            }
            if options.json { return try Terminal.printJSON(pending) }
            guard !pending.links.isEmpty || !pending.people.isEmpty else {
                return Terminal.print(
                    "No invitation to organize \(event) waits for an answer (`constellation event invite \(event)` makes one).")
            }
            let zone = TimeZone(identifier: try await client.event(event).timeZone) ?? .gmt
            for link in pending.links {
                Terminal.print(
                    "\(link.id.uuidString.lowercased())  link by \(link.invitedByName), until \(EventCommand.localTime(link.expiresAt, in: zone))"
                )
            }
            for person in pending.people {
                Terminal.print("\(person.profileId.uuidString.lowercased())  \(person.profileName), invited by \(person.invitedByName)")
            }
        }

        private func mine(_ session: Session) async throws {
            let invitations = try await session.client.allInvitations()
            if options.json { return try Terminal.printJSON(OrganizerInvitationList(items: invitations, nextCursor: nil)) }
            guard !invitations.isEmpty else { return Terminal.print("No invitation waits for you.") }
            for item in invitations {
                Terminal.print(
                    "\(item.eventName) (\(item.eventId)), from \(item.invitedByName): `constellation event accept \(item.eventId)`")
            }
        }
    }

    /// Accepts or declines my invitation to organize an event: one made to my profile, or one I
    /// was given as a link or code.
    struct Answer: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "accept", abstract: "Accept an invitation to organize an event (`--decline` to say no).",
            discussion: """
                Give the event (for an invitation made to your profile, listed by `event invitations`), or --code with \
                the invitation's code or link (one you were given).
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String?

        @Option(help: ArgumentHelp("The invitation's code (XXXXX-XXXXX-XXXXX-XXXXX) or link.", valueName: "code"))
        var code: String?

        @Flag(help: "Decline instead: nothing changes, and the invitation is gone.")
        var decline = false

        func validate() throws {
            guard (event == nil) != (code == nil) else { throw ValidationError("Give the event, or --code, not both.") }
        }

        func run(in session: Session) async throws {
            let client = session.client
            if let code {
                let invitation = try await client.lookAtInvitation(code)
                if decline {
                    try await client.declineInvitationLink(code)
                    return Terminal.print("Declined: you do not organize \(invitation.eventName), and the invitation is used up.")
                }
                let member = try await client.acceptInvitationLink(code)
                if options.json { return try Terminal.printJSON(member) }
                return Terminal.print("You organize \(invitation.eventName) now (invited by \(invitation.invitedByName)).")
            }
            guard let event else { return }
            if decline {
                try await client.declineInvitation(to: event)
                return Terminal.print("Declined.")
            }
            let member = try await client.acceptInvitation(to: event)
            if options.json { return try Terminal.printJSON(member) }
            Terminal.print("You organize \(event) now.")
        }
    }

    /// Who organizes an event.
    struct Organizers: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "Who organizes the event (organizers only).")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        func run(in session: Session) async throws {
            let client = session.client
            let list = try await EventCommand.asOrganizer(of: event) { try await client.organizers(of: event) }
            if options.json { return try Terminal.printJSON(list) }
            let me = try await client.me().id
            for organizer in list.items {
                Terminal.print(
                    "\(organizer.displayName)\(organizer.profileId == me ? " (you)" : "")  \(organizer.profileId.uuidString.lowercased())")
            }
        }
    }

    /// I stop organizing an event and stay an attendee.
    struct StepDown: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "step-down", abstract: "Stop organizing the event; you stay an attendee (an event keeps one organizer).",
            discussion: """
                The view links you made stop working at once, so the walls and live pages open through them go dark, and \
                the invitations you made no longer work. Another organizer can invite you again. (Leaving the event \
                altogether is another matter.) Asks for --yes.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Flag(help: "Yes: end my view links and invitations, and stop organizing.")
        var yes = false

        func validate() throws {
            guard yes else {
                throw ValidationError(
                    "Stepping down ends the view links you made (their walls and live pages go dark) and your invitations: "
                        + "run `constellation event step-down \(event) --yes` if you mean it.")
            }
        }

        func run(in session: Session) async throws {
            let client = session.client
            let member = try await EventCommand.asOrganizer(of: event) { try await client.stepDown(from: event) }
            if options.json { return try Terminal.printJSON(member) }
            Terminal.print("You no longer organize \(event); you are still an attendee.")
        }
    }
}
