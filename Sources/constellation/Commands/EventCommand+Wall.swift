import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    struct OnWall: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "on-wall",
            abstract: "Have an event's walls label you by name, or not (the default).",
            discussion: """
                A wall is the picture an organizer projects for the room: it labels nobody by a pseudonym, and \
                by name only those who said yes here, so that people who want to be found are. Everyone in the \
                room sees that name. Without a choice, says which it is now.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Argument(help: "yes or no.")
        var choice: YesOrNo?

        func run(in session: Session) async throws {
            try await EventCommand.choose(
                choice, at: event, in: session, json: options.json ? "onWall" : nil,
                set: { try await session.client.setWallName($0, at: event).onWall }, current: \.onWall,
                saying: { named in
                    named
                        ? "The walls of \(event) label you by name (`constellation event on-wall \(event) no` takes it off)."
                        : "The walls of \(event) draw you without a label (`constellation event on-wall \(event) yes` shows your name there)."
                })
        }
    }
}
