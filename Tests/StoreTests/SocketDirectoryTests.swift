import Foundation
import Store
import Testing

/// Which leftover socket folders a starting server removes: only those nothing running uses.
@Suite struct SocketDirectoryTests {
    /// A process id that is certainly gone: a child that has exited and been reaped.
    private static func deadProcess() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    private static func folder(lock: pid_t?, owner: pid_t?) throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/\(SocketDirectory.prefix)test\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if let lock {
            try "\(lock)\n/data\n".write(to: url.appendingPathComponent(".s.PGSQL.5432.lock"), atomically: true, encoding: .utf8)
        }
        if let owner {
            try "\(owner)\n".write(to: url.appendingPathComponent(SocketDirectory.ownerFile), atomically: true, encoding: .utf8)
        }
        return url
    }

    @Test func onlyFoldersNothingRunningUsesAreSwept() throws {
        let dead = try Self.deadProcess()
        let abandoned = try Self.folder(lock: dead, owner: dead)
        let restarting = try Self.folder(lock: dead, owner: getpid())  // PostgreSQL died; its server is restarting it
        let serving = try Self.folder(lock: getpid(), owner: nil)
        let starting = try Self.folder(lock: nil, owner: nil)  // created a moment ago, no lock yet
        defer { for folder in [restarting, serving, starting] { try? FileManager.default.removeItem(at: folder) } }

        let removed = SocketDirectory.sweepStale().map(\.path)
        // Gone (a server starting in a parallel test may have swept it first).
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        for kept in [restarting, serving, starting] {
            #expect(!removed.contains(kept.path) && FileManager.default.fileExists(atPath: kept.path), "\(kept.lastPathComponent)")
        }
        let later = SocketDirectory.sweepStale(now: Date().addingTimeInterval(120)).map(\.path)
        #expect(later.contains(starting.path), "a lock-less folder over a minute old is stale")
    }

    /// A folder at the socket's path that is another user's (made first, to stop the start or to
    /// put a socket of theirs where the server connects without a password) is refused; the
    /// server's own is made its alone. Only root can give a folder away.
    @Test(.enabled(if: geteuid() == 0)) func aFolderOfAnotherUsersIsRefused() throws {
        let nobody = try #require(getpwnam("nobody")).pointee
        let socket = SocketDirectory(for: URL(fileURLWithPath: "/tmp/constellation-data-\(UInt32.random(in: 0...UInt32.max))"))
        try FileManager.default.createDirectory(at: socket.url, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: socket.url) }
        #expect(chmod(socket.url.path, 0o777) == 0 && chown(socket.url.path, nobody.pw_uid, nobody.pw_gid) == 0)
        #expect(throws: PostgresError.self) { try socket.create(owner: nil) }
        #expect(!FileManager.default.fileExists(atPath: socket.url.appendingPathComponent(SocketDirectory.ownerFile).path))

        #expect(chown(socket.url.path, 0, 0) == 0)
        try socket.create(owner: nil)
        let mode = try FileManager.default.attributesOfItem(atPath: socket.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o700, "the server's own folder, its alone")
    }
}
