import ArgumentParser
import Foundation
import NIOPosix
import Store

/// Applies pending migrations and exits.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = try common.logger()
        let environment = ProcessInfo.processInfo.environment
        let dataDirectory = URL(fileURLWithPath: common.dataDirectory ?? environment["CONSTELLATION_DATA_DIR"] ?? ".constellation")
        let setup = DatabaseSetup(environment: environment, dataDirectory: dataDirectory, logger: logger)
        let migrations = try setup.migrationsDirectory()
        let (conninfo, embedded) = try await NIOThreadPool.singleton.runIfActive { try setup.connect() }
        let database = Database(conninfo: conninfo, maximumConnections: 1, logger: logger)
        let applied: [String]
        do {
            applied = try await Migrator(directory: migrations, logger: logger).migrate(database)
        } catch {
            await DatabaseSetup.shutdown(database, embedded)
            throw error
        }
        await DatabaseSetup.shutdown(database, embedded)
        print(applied.isEmpty ? "The database is up to date." : "Applied \(applied.joined(separator: ", ")).")
    }
}
