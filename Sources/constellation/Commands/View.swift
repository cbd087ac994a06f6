import ArgumentParser
import ConstellationModel
import Foundation

struct View: SessionCommand {
    static let configuration = CommandConfiguration(abstract: "See your network: you, your connections, their links.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Also write the picture as SVG to this file.", completion: .file())
    var svg: String?

    @Option(help: "How far to look: 1 is you and your connections, 2 adds their connections.")
    var depth = 1

    func validate() throws {
        guard depth == 1 || depth == 2 else { throw ValidationError("--depth is 1 or 2") }
    }

    func run(in session: Session) async throws {
        let network = try await session.client.network(depth: depth)
        if let svg {
            try OutputFile.write(Array(NetworkDrawing.svg(network).utf8), to: svg)
            Terminal.note("Wrote \(svg).")
        }
        if options.json { return try Terminal.printJSON(network) }
        Terminal.print(NetworkDrawing.text(network, columns: Terminal.columns))
    }
}
