import ArgumentParser

/// `constellation-server import …`: data from elsewhere, loaded into the database.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load data from other sources into the database (migrations are applied first).",
        subcommands: [ImportSocioPatterns.self]
    )
}
