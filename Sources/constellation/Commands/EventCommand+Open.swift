import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    struct Open: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "A link to the event's live constellation, to open on any screen (organizers only).",
            discussion: """
                The link carries a view token in its fragment: whoever opens it reads the event's network, \
                growth and summary until it expires (CONSTELLATION_VIEW_TOKEN_MINUTES on the server, 12 hours by \
                default), and can change nothing. `--wall` makes a link for a projector, which names only those who chose to be on the wall. \
                `--screens` says on how many screens at once the link may be open (4 by default, up to 50): each \
                link holds its own, apart from your own key's.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Flag(help: "A link for a projector: full screen, naming only those who chose to be on the wall.")
        var wall = false

        @Option(help: ArgumentHelp("On how many screens at once the link may be open (1 to 50).", valueName: "count"))
        var screens: Int?

        func validate() throws {
            if let screens, !ViewTokenRequest.screenRange.contains(screens) {
                throw ValidationError("--screens must be 1 to 50.")
            }
        }

        /// What `--json` prints: the server's answer and the link to open.
        struct Opened: Encodable {
            let link: String
            let issued: IssuedViewToken

            func encode(to encoder: any Encoder) throws {
                try issued.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(link, forKey: .link)
            }

            private enum Key: String, CodingKey { case link }
        }

        func run(in session: Session) async throws {
            let issued = try await EventCommand.asOrganizer(of: event) {
                try await session.client.issueViewToken(for: event, wall: wall, screens: screens)
            }
            // Without a public URL, the link is on the address this CLI reaches the server at.
            let link = issued.url ?? session.client.baseURL + issued.path
            if options.json { return try Terminal.printJSON(Opened(link: link, issued: issued)) }
            Terminal.print(
                """
                \(link)
                Open it in a browser\(wall ? " on the projector" : ""): it shows \(event)'s live constellation \
                until \(issued.expiresAt.formatted(date: .abbreviated, time: .shortened)), read-only, on up to \
                \(issued.screens) screen\(issued.screens == 1 ? "" : "s") at once.
                """)
        }
    }
}
