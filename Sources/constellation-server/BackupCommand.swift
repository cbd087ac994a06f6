import ArgumentParser
import Backup
import ConstellationModel
import Foundation
import Keys
import NIOPosix
import Store

/// `constellation-server backup --output FILE`: the database and the key files in one archive.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the database and the signing, retired and pseudonym keys to one archive (mode 0600) with a manifest of checksums.",
        discussion: """
            The database is dumped with pg_dump from one consistent snapshot, while the server keeps serving. Keys given \
            in the environment (CONSTELLATION_SIGNING_KEY) are not written: they are the operator's to keep. Restore with \
            constellation-server restore FILE.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(name: .shortAndLong, help: "The archive to write; it must not exist yet.", completion: .file())
    var output: String

    func run() async throws {
        try await CommandFailure.reporting {
            let logger = try common.logger(defaultLevel: "warning")
            let environment = ProcessInfo.processInfo.environment
            let dataDirectory = common.dataDirectory(environment)
            let archive = URL(fileURLWithPath: output)
            guard !FileManager.default.fileExists(atPath: archive.path) else {
                throw CommandFailure.cannotCreate("\(archive.path) exists already; choose another name")
            }
            let keysFromEnvironment = environment[SigningKeyFile.environmentVariable] != nil
            let keyFiles =
                keysFromEnvironment
                ? []
                : SigningKeyFile.fileNames.map { dataDirectory.appendingPathComponent($0) }.filter {
                    FileManager.default.fileExists(atPath: $0.path)
                }
            guard keysFromEnvironment || keyFiles.first?.lastPathComponent == SigningKeyFile.fileNames[0] else {
                throw CommandFailure.noInput("\(dataDirectory.path) holds no signing key: is it the server's data directory (--data-dir)?")
            }
            let began = ContinuousClock.now
            let work = archive.deletingLastPathComponent().appendingPathComponent(".constellation-backup-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: work) }
            let dump = work.appendingPathComponent(BackupArchive.databaseName)
            let setup = try DatabaseSetup(environment: environment, dataDirectory: dataDirectory, logger: logger)
            let migrations = try await setup.withDatabase(maximumConnections: 1, sharingRunningServer: true) { database, conninfo in
                let migrations = try await Migrator.applied(database)
                guard !migrations.isEmpty else {
                    throw CommandFailure.data("the database holds no Constellation schema: nothing to back up")
                }
                try await NIOThreadPool.singleton.runIfActive { try DatabaseDump.write(conninfo: conninfo, to: dump) }
                return migrations
            }
            let manifest: BackupManifest
            do throws(BackupError) {
                manifest = try BackupArchive.write(
                    to: archive,
                    files: [(BackupArchive.databaseName, dump)] + keyFiles.map { (BackupArchive.keysFolder + $0.lastPathComponent, $0) },
                    migrations: migrations, keysFromEnvironment: keysFromEnvironment)
            } catch {
                throw CommandFailure.cannotCreate(error.description)
            }
            let bytes = manifest.files.reduce(0) { $0 + $1.bytes }
            print(
                "Wrote \(archive.path): the database at \(migrations.last!) (\(bytes / 1024) KiB with \(keyFiles.count) key files) in \(Self.seconds(since: began))."
            )
            if keysFromEnvironment {
                print("The keys are in the environment (CONSTELLATION_SIGNING_KEY…), not in the archive: keep them with it.")
            }
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        return String(format: "%.1f s", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
