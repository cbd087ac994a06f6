import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    struct View: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "See an event's constellation: who connected there and the pairs that did (organizers only).",
            discussion: "People appear by name only if they chose to be named at the event, else by a per-event pseudonym.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "Also write the picture as SVG to this file (readable by you only).", completion: .file())
        var svg: String?

        func run(in session: Session) async throws {
            let network = try await EventCommand.asOrganizer(of: event) { try await session.client.eventNetwork(event) }
            if let svg {
                try OutputFile.write(Array(NetworkDrawing.svg(network).utf8), to: svg)
                Terminal.note("Wrote \(svg).")
            }
            if options.json { return try Terminal.printJSON(network) }
            Terminal.print(
                NetworkDrawing.text(
                    network, columns: Terminal.columns,
                    empty: "No one has connected at \(event) yet."))
        }
    }
}
