import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    struct Export: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "An event's network as a file for Gephi, yEd, a spreadsheet, sigma.js or Cytoscape.js (organizers only).",
            discussion: """
                GEXF is dynamic (each edge starts when its pair first connected), GraphML static, CSV is \
                source,target,first_at,source_label,target_label, graphology is what sigma.js imports, cytoscape is Cytoscape.js elements. \
                Nodes are per-event pseudonyms, labelled by name only for people who chose it.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case gexf, graphml, csv, graphology, cytoscape }

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "The file format: gexf, graphml, csv, graphology or cytoscape.")
        var format: Format

        @Option(name: [.short, .long], help: "Write to this file (readable by you only) instead of stdout.", completion: .file())
        var output: String?

        func validate() throws {
            if options.json { throw ValidationError("--format chooses the file's format: drop --json") }
        }

        func run(in session: Session) async throws {
            let bytes = try await EventCommand.asOrganizer(of: event) {
                try await session.client.exportEventNetwork(event, format: format.rawValue)
            }
            try OutputFile.write(bytes, to: output)
            if let output { Terminal.note("Wrote \(event)'s network to \(output).") }
        }
    }
}
