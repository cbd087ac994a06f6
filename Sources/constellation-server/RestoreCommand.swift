import ArgumentParser
import Backup
import ConstellationModel
import Foundation
import Keys
import Logging
import NIOPosix
import Server
import Store

/// `constellation-server restore FILE`: a backup into an empty database and data directory.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty database and a data directory without keys.",
        discussion: """
            Nothing in the archive is run. Its members are checked against its manifest before anything is unpacked, \
            its key files are read as the server reads them, and its database dump is compared with this binary's own \
            schema at the backup's migration (built in a throwaway PostgreSQL): the same objects, the same definitions, \
            nothing else. Then the schema is built from this binary's migrations and the dump's rows loaded into it, in \
            one transaction; what was committed is counted, and the keys are moved into place last. Refused, with \
            nothing written: a truncated, altered or foreign archive, or one whose database holds anything Constellation \
            does not write (exit 65); a database that holds tables or a data directory that holds keys (73); a server \
            running on the data directory (75); a backup whose schema is newer than this binary's migrations, or a \
            connection as a superuser without --allow-superuser (78). Migrations this binary has beyond the backup's run \
            in the same transaction, and every row must keep the rules this release keeps on what it stores (the \
            schema's and the API's): a row that breaks one is named by its table, key and rule (65). Events in the archive past their purge date are said, and purged by the server \
            soon after its start, or at once with --purge-overdue.
            """
    )

    @OptionGroup var common: CommonOptions

    @Flag(help: "Restore even when the database role is a superuser (the role the server connects as should not be one).")
    var allowSuperuser = false

    @Flag(help: "Purge the events past their purge date now, instead of at the server's next start.")
    var purgeOverdue = false

    @Argument(help: "The archive constellation-server backup wrote.", completion: .file())
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
            try Self.refuseKeys(in: dataDirectory)
            let began = ContinuousClock.now
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("constellation-restore-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: work) }
            let manifest: BackupManifest
            do throws(BackupError) {
                manifest = try BackupArchive.extract(source, into: work)
            } catch {
                // A file that cannot be read or written (a full /tmp) is no fault of the archive's.
                if case .io = error { throw CommandFailure.io(error.description) }
                throw CommandFailure.data(error.description)
            }
            let setup = try DatabaseSetup(environment: environment, dataDirectory: dataDirectory, logger: logger)
            let rules = StoredValueRules.all(eventHorizon: try ServerConfiguration(environment: environment).eventHorizon)
            let migrator = Migrator(directory: try setup.migrationsDirectory(), logger: logger)
            let migrations = try Self.migrations(of: manifest, in: migrator)
            let later = Array(try migrator.migrations().dropFirst(migrations.count))
            let keys = try Self.checkedKeys(in: work.appendingPathComponent(BackupArchive.keysFolder), manifest: manifest)
            let restore = try await NIOThreadPool.singleton.runIfActive {
                try DatabaseRestore(
                    dump: work.appendingPathComponent(BackupArchive.databaseName), migrations: migrations, later: later, work: work,
                    logger: logger)
            }
            let staged = try KeyStaging(keys, from: work.appendingPathComponent(BackupArchive.keysFolder), beside: dataDirectory)
            defer { staged.discard() }
            let (rows, overdue) = try await setup.withDatabase(maximumConnections: 1, sharingRunningServer: false) { database in
                let rows = try await restore.load(into: database, allowingSuperuser: allowSuperuser, rules: rules)
                do {
                    try staged.moveIntoPlace()
                } catch {
                    try? await DatabaseRestore.removeEverything(from: database)
                    throw error
                }
                do {
                    if !manifest.keysFromEnvironment {
                        _ = try SigningKeyFile.load(environment: [:], dataDirectory: dataDirectory, create: false).keyRing()
                    }
                } catch {
                    staged.takeBack()
                    try? await DatabaseRestore.removeEverything(from: database)
                    throw CommandFailure.software("the restored keys cannot be read back (\(error)); what was restored has been removed")
                }
                // The restore is whole from here: what follows, cut short or failing, is said, not undone.
                do {
                    try await DatabaseRestore.analyze(database)
                } catch {
                    logger.warning(
                        "the restored tables' statistics were not gathered: the server's first queries may be slow",
                        metadata: ["error": "\(error)"])
                }
                do {
                    return (rows, try await Self.overdue(in: database, purging: purgeOverdue, logger: logger))
                } catch {
                    logger.warning(
                        """
                        the restore is done, but purging the events past their purge date failed: the server purges them \
                        within CONSTELLATION_PURGE_INTERVAL_SECONDS of its next start
                        """,
                        metadata: ["error": "\(error)"])
                    return (rows, .none)
                }
            }
            let total = rows.values.reduce(0, +)
            let counts = [("profiles", "people"), ("events", "events"), ("connections", "connections")].map { "\(rows[$0.0] ?? 0) \($0.1)" }
            print(
                "Restored \(source.path): the database at \(manifest.migrations.last ?? "-") (\(counts.joined(separator: ", ")); "
                    + "\(total) rows in \(rows.count) tables, counted after the commit) and \(keys.count) key files into \(dataDirectory.path), "
                    + "in \(BackupCommand.seconds(since: began)).")
            switch overdue {
            case .none: break
            case .waiting(let count):
                print(
                    "\(count) events are past their purge date: the server purges them within CONSTELLATION_PURGE_INTERVAL_SECONDS "
                        + "of its next start (or restore with --purge-overdue to purge them now).")
            case .purged(let count):
                print("\(count) events past their purge date were purged (--purge-overdue).")
            }
            if manifest.keysFromEnvironment {
                print("The backup's keys were in the environment: start the server with the same CONSTELLATION_SIGNING_KEY… values.")
            }
        }
    }

    /// What the restored database holds past its purge dates.
    enum Overdue: Sendable {
        case none
        case waiting(Int)
        case purged(Int)
    }

    /// The events past their purge date and not yet purged, purged now if `purging`. A backup from
    /// before purge dates has none: its events get theirs from the migration, a grace from now.
    private static func overdue(in database: Database, purging: Bool, logger: Logger) async throws -> Overdue {
        let count = try await database.withConnection { connection in
            let dated = try connection.query(
                "SELECT 1 FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'purge_on'")
            guard !dated.isEmpty else { return 0 }
            return Int(
                try connection.query("SELECT count(*) AS n FROM events WHERE purge_finished_at IS NULL AND purge_on <= now()")[0].int("n"))
        }
        guard count > 0 else { return .none }
        guard purging else { return .waiting(count) }
        return .purged(try await EventPurge(metrics: ServerMetrics(), logger: logger).purgeOverdue(database))
    }

    /// Refuses a data directory that holds keys already (73).
    private static func refuseKeys(in dataDirectory: URL) throws {
        if let present = SigningKeyFile.fileNames.first(where: {
            FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent($0).path)
        }) {
            throw CommandFailure.cannotCreate(
                "\(dataDirectory.path) holds keys already (\(present)): restore into a data directory without them")
        }
    }

    /// This binary's migrations up to the backup's last: the backup's must be their beginning.
    private static func migrations(of manifest: BackupManifest, in migrator: Migrator) throws -> [(version: String, sql: String)] {
        let known = try migrator.migrations()
        if let unknown = manifest.migrations.first(where: { version in !known.contains { $0.version == version } }) {
            throw CommandFailure.configuration(
                BackupError.newerSchema("it has migration \(unknown), which this binary does not know; restore with a newer release")
                    .description)
        }
        guard !manifest.migrations.isEmpty, manifest.migrations == known.prefix(manifest.migrations.count).map(\.version) else {
            throw CommandFailure.data(BackupError.altered("its migrations are not this release's, in order, from the first").description)
        }
        return Array(known.prefix(manifest.migrations.count))
    }

    /// The key files in `folder`, each read as the server reads it; a backup of keys from the
    /// environment holds none, any other holds a signing key.
    private static func checkedKeys(in folder: URL, manifest: BackupManifest) throws -> [String] {
        let names = SigningKeyFile.fileNames.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        if manifest.keysFromEnvironment {
            guard names.isEmpty else {
                throw CommandFailure.data(BackupError.altered("its keys were in the environment, yet it holds key files").description)
            }
            return []
        }
        do {
            _ = try SigningKeyFile.load(environment: [:], dataDirectory: folder, create: false).keyRing()
        } catch {
            throw CommandFailure.data(BackupError.altered("its keys cannot be used: \(error)").description)
        }
        return names
    }
}
