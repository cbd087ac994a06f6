import ArgumentParser
import ConstellationModel
import Foundation
import Graph
import Hummingbird
import Keys
import Logging
import NIOCore
import Server
import Store

/// Runs the HTTP API until SIGINT or SIGTERM, then shuts it down, the services it stands on in
/// reverse order (`buildApplication`).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the API server (migrations are applied first).")

    @OptionGroup var common: CommonOptions

    @Option(help: "Address to listen on (CONSTELLATION_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 for any free port (CONSTELLATION_PORT; default 8080).")
    var port: Int?

    func run() async throws {
        try await CommandFailure.reporting {
            let environment = ProcessInfo.processInfo.environment
            ProcessMemory.limitArenas(environment: environment)
            GraphThreads.limit(to: Int(environment["CONSTELLATION_GRAPH_THREADS"] ?? "") ?? 0)
            let logger = try common.logger()
            var configuration = try ServerConfiguration(environment: environment)
            for (variable, notice) in ServerConfiguration.retiredSettings.sorted(by: { $0.key < $1.key }) where environment[variable] != nil
            {
                logger.warning("\(notice)")
            }
            if let host { configuration.host = host }
            if let port {
                guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
                configuration.port = port
            }
            if let directory = common.dataDirectory { configuration.dataDirectory = URL(fileURLWithPath: directory) }

            let setup = try DatabaseSetup(environment: environment, dataDirectory: configuration.dataDirectory, logger: logger)
            let migrations = try setup.migrationsDirectory()
            let keys = try CommandFailure.reportingKeyErrors {
                try KeyRingStore(environment: environment, dataDirectory: configuration.dataDirectory)
            }
            let migrator = Migrator(directory: migrations, logger: logger)
            let schemaVersion = try migrator.migrations().last?.version
            // Nothing below throws before the application runs: it stops the embedded PostgreSQL this starts.
            let (database, underlying) = try await setup.databaseForServing(
                maximumConnections: configuration.databasePoolSize, connectionWait: configuration.databaseWait,
                statementTimeout: configuration.statementTimeout)
            let replica = setup.replica(
                maximumConnections: configuration.databasePoolSize, connectionWait: configuration.databaseWait,
                statementTimeout: configuration.statementTimeout)
            let services = AppServices(
                configuration: configuration, database: database, replica: replica, keys: keys,
                schemaVersion: schemaVersion, logger: logger)
            let host = configuration.host
            let jsonLines = environment["CONSTELLATION_LOG_FORMAT"] == "json"
            let app = buildApplication(services, logger: logger, underlying: underlying) {
                try await migrator.migrate(database)
            } onServerRunning: { port in
                // Scripts and tests read this line on stdout to learn the address, whatever the log
                // level; with JSON logs, it is a JSON line too.
                let line = "Constellation listening on http://\(host):\(port)"
                let text = jsonLines ? #"{"level":"notice","message":"\#(line)"}"# : line
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
            }
            do {
                try await app.runService()
            } catch let error as IOError {
                throw CommandFailure.unavailable(
                    "cannot serve on \(host):\(configuration.port): \(String(cString: strerror(error.errnoCode)))")
            }
        }
    }
}
