import ArgumentParser
import Backup
import Foundation
import Keys
import NIOPosix
import Store

/// `constellation-server restore FILE`: a backup into an empty database and data directory.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty database and a data directory without keys.",
        discussion: """
            Every file is checked against the archive's manifest before anything is written; the database is restored \
            in one transaction. Refused, with nothing written: a truncated, altered or foreign archive (exit 65), a \
            database that holds tables or a data directory that holds keys (73), a backup whose schema is newer than \
            this binary's migrations (78). Migrations this binary has beyond the backup's run when the server starts.
            """
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: "The archive constellation-server backup wrote.")
    var archive: String

    func run() async throws {
        try await CommandFailure.reporting {
            let logger = try common.logger(defaultLevel: "warning")
            let environment = ProcessInfo.processInfo.environment
            let dataDirectory = common.dataDirectory(environment)
            let source = URL(fileURLWithPath: archive)
            guard FileManager.default.isReadableFile(atPath: source.path) else {
                throw CommandFailure.noInput("cannot read \(source.path)")
            }
            if let present = SigningKeyFile.fileNames.first(where: {
                FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent($0).path)
            }) {
                throw CommandFailure.cannotCreate(
                    "\(dataDirectory.path) holds keys already (\(present)): restore into a data directory without them")
            }
            let began = ContinuousClock.now
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("constellation-restore-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: work) }
            let manifest: BackupManifest
            do throws(BackupError) {
                manifest = try BackupArchive.extract(source, into: work)
            } catch {
                throw CommandFailure.data(error.description)
            }
            let setup = try DatabaseSetup(environment: environment, dataDirectory: dataDirectory, logger: logger)
            let known = Set(try Migrator(directory: try setup.migrationsDirectory(), logger: logger).migrations().map(\.version))
            if let unknown = manifest.migrations.first(where: { !known.contains($0) }) {
                throw CommandFailure.configuration(
                    BackupError.newerSchema("it has migration \(unknown), which this binary does not know; restore with a newer release")
                        .description)
            }
            let keys = manifest.files.map(\.name).filter { $0.hasPrefix(BackupArchive.keysFolder) }
            try await setup.withDatabase(maximumConnections: 1, sharingRunningServer: false) { database, conninfo in
                guard try await DatabaseDump.isEmpty(database) else {
                    throw CommandFailure.cannotCreate("the database holds tables already: restore into an empty one (createdb)")
                }
                let dump = work.appendingPathComponent(BackupArchive.databaseName)
                try await NIOThreadPool.singleton.runIfActive { try DatabaseDump.restore(dump, conninfo: conninfo) }
            }
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            for name in keys {
                let target = dataDirectory.appendingPathComponent(String(name.dropFirst(BackupArchive.keysFolder.count)))
                try FileManager.default.copyItem(at: work.appendingPathComponent(name), to: target)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
            }
            print(
                "Restored \(source.path): the database at \(manifest.migrations.last ?? "-") and \(keys.count) key files, in \(BackupCommand.seconds(since: began))."
            )
            if manifest.keysFromEnvironment {
                print("The backup's keys were in the environment: start the server with the same CONSTELLATION_SIGNING_KEY… values.")
            }
        }
    }
}
