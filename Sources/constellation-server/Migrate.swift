import ArgumentParser
import ConstellationModel
import Foundation
import Store

/// Applies pending migrations and exits.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = try common.logger()
        let environment = ProcessInfo.processInfo.environment
        try await CommandFailure.reporting {
            let setup = try DatabaseSetup(environment: environment, dataDirectory: common.dataDirectory(environment), logger: logger)
            let migrations = try setup.migrationsDirectory()
            let applied = try await setup.withDatabase(maximumConnections: 1, sharingRunningServer: true) { database in
                try await Migrator(directory: migrations, logger: logger).migrate(database)
            }
            print(applied.isEmpty ? "The database is up to date." : "Applied \(applied.joined(separator: ", ")).")
        }
    }
}
