import ArgumentParser
import ConstellationModel
import Foundation
import Logging
import Server

@main
struct ConstellationServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "constellation-server",
        abstract: "The Constellation API server: signed QR tokens in, connections and constellations out.",
        version: Release.version,
        subcommands: [Serve.self, Migrate.self, Import.self, Keys.self, BackupCommand.self, RestoreCommand.self],
        defaultSubcommand: Serve.self
    )
}

/// Options every subcommand shares: where the data lives and how loudly to log.
struct CommonOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: "Signing keys and embedded PostgreSQL directory (CONSTELLATION_DATA_DIR; default .constellation).", completion: .directory)
    var dataDirectory: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (LOG_LEVEL; default info, warning for import).")
    var logLevel: String?

    /// `--data-dir`, else `CONSTELLATION_DATA_DIR`, else `.constellation`.
    func dataDirectory(_ environment: [String: String]) -> URL {
        URL(fileURLWithPath: dataDirectory ?? environment["CONSTELLATION_DATA_DIR"] ?? ".constellation")
    }

    /// Logs to stderr at `--log-level`, else `LOG_LEVEL`, else `defaultLevel`: as text, or as JSON
    /// lines with `CONSTELLATION_LOG_FORMAT=json`.
    func logger(defaultLevel: String = "info") throws -> Logger {
        let environment = ProcessInfo.processInfo.environment
        let text = logLevel ?? environment["LOG_LEVEL"] ?? defaultLevel
        guard let level = Logger.Level(rawValue: text) else { throw ValidationError("unknown log level '\(text)'") }
        let format = environment["CONSTELLATION_LOG_FORMAT"] ?? "text"
        guard ["text", "json"].contains(format) else { throw ValidationError("CONSTELLATION_LOG_FORMAT is text or json, not '\(format)'") }
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = format == "json" ? JSONLogHandler(label: label) : TextLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "constellation")
    }
}
