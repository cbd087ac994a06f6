import ArgumentParser
import ConstellationModel
import Foundation
import Graph
import GraphExport

struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Lay out or measure any graph file, offline.",
        discussion: "The file is an edge list (`u v` per line), CSV with a header, or a SocioPatterns `t i j` file.",
        subcommands: [GraphLayout.self, GraphStats.self]
    )
}

/// Options shared by the graph commands: the input file and how to read it.
struct GraphInput: ParsableArguments {
    @Argument(help: "The graph: `u v` per line (# comments, a third column ignored), CSV with a header, or `t i j`.", completion: .file())
    var file: String

    @Option(name: .customLong("input-format"), help: "How to read the file (default: guessed from its name).")
    var inputFormat: EdgeListFormat?

    @Option(help: "Seed for every random choice: the same seed gives the same result.")
    var seed: UInt64 = 1

    /// The graph in `file`; graph work after it uses `CONSTELLATION_GRAPH_THREADS` threads (default: one per core).
    func read() throws(CommandFailure) -> ParsedGraph {
        GraphThreads.limit(to: Int(ProcessInfo.processInfo.environment["CONSTELLATION_GRAPH_THREADS"] ?? "") ?? 0)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .noInput("cannot read \(file)")
        }
        let format = inputFormat ?? EdgeListFormat.guess(fileName: file)
        do {
            return try EdgeListParser.parse(String(decoding: data, as: UTF8.self), format: format)
        } catch {
            throw .data("\(file): \(error)")
        }
    }
}

extension EdgeListFormat: ExpressibleByArgument {}
extension LayoutDocument.Format: ExpressibleByArgument {}

struct GraphLayout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "layout", abstract: "Lay out a graph and print the positions.")

    @OptionGroup var input: GraphInput

    @Option(help: "The output format.")
    var format: LayoutDocument.Format = .json

    @Option(
        name: .customLong("warm-start"), help: "A previous layout JSON to grow: its nodes move little, new ones settle among them.")
    var warmStart: String?

    @Option(name: [.short, .long], help: "Write to this file instead of standard output.", completion: .file())
    var output: String?

    @Flag(help: "Also print layout quality (normalised stress, neighbourhood preservation) on stderr.")
    var quality = false

    func run() async throws {
        try await reportingErrors {
            let parsed = try input.read()
            let previous = try warmStart.map(readPrevious)
            let seed = input.seed
            let graph = parsed.graph
            let document = await Progress.run("laying out \(graph.nodeCount) nodes, \(graph.edgeCount) edges") {
                LayoutDocument(graph: graph, seed: seed, previous: previous)
            }
            if quality {
                let points = document.nodes.map { Point(x: $0.x, y: $0.y) }
                let stress = LayoutQuality.stress(graph, points)
                let preservation = LayoutQuality.neighbourhoodPreservation(graph, points)
                Terminal.note(
                    String(
                        format: "layout %.3f s, normalised stress %.4f, neighbourhood preservation %.4f", document.meta.seconds, stress,
                        preservation))
            }
            // Streamed out a megabyte at a time: a million-node layout never sits in memory as text.
            let handle: FileHandle
            if let output {
                guard FileManager.default.createFile(atPath: output, contents: nil), let file = FileHandle(forWritingAtPath: output) else {
                    throw CommandFailure.io("cannot write \(output)")
                }
                handle = file
            } else {
                handle = FileHandle.standardOutput
            }
            document.write(format, to: TextSink { Terminal.write(Data($0.utf8), to: handle) })
        }
    }

    private func readPrevious(_ path: String) throws(CommandFailure) -> [String: Point] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .noInput("cannot read \(path)") }
        guard let previous = try? JSONDecoder().decode(LayoutDocument.self, from: data) else {
            throw .data("\(path) is not a layout JSON written by `constellation graph layout`")
        }
        // A layout's own pictures stay near [-1, 1]²; far beyond, the picture could not be drawn.
        if let far = previous.nodes.first(where: { !(abs($0.x) <= 1e6 && abs($0.y) <= 1e6) }) {
            throw .data("\(path): node \(far.id) is at (\(far.x), \(far.y)); a layout's positions are within ±1,000,000")
        }
        return previous.positionsById
    }
}

struct GraphStats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Network statistics of a graph.")

    @OptionGroup var input: GraphInput

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reportingErrors {
            let parsed = try input.read()
            let seed = input.seed
            let graph = parsed.graph
            let stats = await Progress.run("measuring \(graph.nodeCount) nodes, \(graph.edgeCount) edges") {
                GraphStatistics(graph, seed: seed)
            }
            if json { return try Terminal.printJSON(stats) }
            Terminal.print(StatisticsReport.text(stats))
        }
    }
}
