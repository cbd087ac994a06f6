import Foundation
import NIOPosix
import Store
import TestSupport
import Testing

/// One embedded PostgreSQL per data folder, whoever can see whose processes: two containers on one
/// volume each started one on the same cluster, and the writes of one were lost.
@Suite(.tier(.database)) struct DataFolderLockTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")

    /// Another process holding the folder's lock (here a second lock in this process, which the
    /// kernel refuses alike) makes `start()` refuse, touching nothing, though no postmaster it can
    /// see runs there; once it is let go, the server starts.
    @Test func aFolderInUseElsewhereIsRefusedUntilItIsFree() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var elsewhere: DataFolderLock? = try DataFolderLock(directory)
        let cluster = EmbeddedPostgres(dataDirectory: directory, logger: TestDatabase.logger)
        await #expect(throws: PostgresError.self) { _ = try await NIOThreadPool.singleton.runIfActive { try cluster.start() } }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("postgres/PG_VERSION").path), "nothing made")
        _ = elsewhere
        elsewhere = nil
        _ = try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
        #expect(throws: PostgresError.self, "while it runs, the folder is locked") { _ = try DataFolderLock(directory) }
        try await NIOThreadPool.singleton.runIfActive { cluster.stop() }
        _ = try DataFolderLock(directory)
    }

    /// A `postmaster.pid` left by a server killed outright, naming a pid since reused by a process
    /// that is no PostgreSQL (here this one: in a container, the new server's own threads), is
    /// stale: PostgreSQL refused to start over it, every time, until it was deleted by hand.
    @Test func aStalePostmasterPidIsNoObstacle() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedPostgres(dataDirectory: directory, logger: TestDatabase.logger)
        _ = try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
        try await NIOThreadPool.singleton.runIfActive { cluster.stop() }
        let pidFile = directory.appendingPathComponent("postgres/postmaster.pid")
        try "\(getpid())\n\(directory.path)/postgres\n".write(to: pidFile, atomically: true, encoding: .utf8)
        _ = try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
        #expect(cluster.isRunning)
        try await NIOThreadPool.singleton.runIfActive { cluster.stop() }
        let logs = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("postgres.log") }.sorted()
        #expect(logs == ["postgres.log", "postgres.log.1"], "the run before's log is kept: \(logs)")
    }

    /// Run as root, a data folder of another user's is refused, and stays theirs: given to postgres
    /// (which runs PostgreSQL for root), its owner could no longer open it. Only root can give a
    /// folder away.
    @Test(.enabled(if: geteuid() == 0)) func rootLeavesAnotherUsersFolderAlone() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let nobody = try #require(getpwnam("nobody")).pointee
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(chown(directory.path, nobody.pw_uid, nobody.pw_gid) == 0)
        let cluster = EmbeddedPostgres(dataDirectory: directory, logger: TestDatabase.logger)
        await #expect(throws: PostgresError.self) { _ = try await NIOThreadPool.singleton.runIfActive { try cluster.start() } }
        let owner = try FileManager.default.attributesOfItem(atPath: directory.path)[.ownerAccountID] as? NSNumber
        #expect(owner?.uint32Value == nobody.pw_uid, "still nobody's")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("postgres").path), "nothing made in it")
    }
}
