import Foundation

/// Where an embedded PostgreSQL puts its unix socket: a short path in /tmp (socket paths are
/// limited to about 107 bytes) named after the data directory, so a server that crashed or was
/// killed leaves one folder that its next start reuses, and a sweep can tell stale folders.
package struct SocketDirectory {
    package static let prefix = "constellation-pg-"
    static let root = URL(fileURLWithPath: "/tmp")

    package let url: URL

    /// The folder for the cluster in `dataDirectory`.
    package init(for dataDirectory: URL) {
        url = Self.root.appendingPathComponent(Self.prefix + Self.fingerprint(dataDirectory.standardizedFileURL.path))
    }

    /// The file naming the Constellation server that uses the folder: while that process lives,
    /// the folder is not stale, even between a PostgreSQL crash and its restart.
    package static let ownerFile = "constellation.pid"

    /// Creates the folder (or keeps it), owned by `owner`, readable by it alone, and marks it as
    /// this process's. Refuses a folder that another living process marked as its own, and one
    /// that is not this user's or `owner`'s (or no folder): its name is known in advance, and
    /// another user of the machine could make it first, to stop the start or to put a socket of
    /// their own where the server connects without a password.
    package func create(owner: (uid: uid_t, gid: gid_t)?) throws(PostgresError) {
        // Made here, or checked (also when another made it between the look and the making).
        var found = stat()
        if lstat(url.path, &found) != 0 {
            guard mkdir(url.path, 0o700) == 0 || errno == EEXIST, lstat(url.path, &found) == 0 else {
                throw PostgresError(
                    .embeddedServer, message: "cannot create the socket directory \(url.path): \(String(cString: strerror(errno)))")
            }
        }
        guard found.st_mode & S_IFMT == S_IFDIR, found.st_uid == geteuid() || found.st_uid == owner?.uid else {
            throw PostgresError(
                .embeddedServer,
                message: "the PostgreSQL socket folder \(url.path) is not this server's (another user's, or not a folder): "
                    + "remove it, then start again")
        }
        if let other = owningProcess(), other != getpid() {
            throw PostgresError(
                .alreadyRunning,
                message: "the PostgreSQL socket folder \(url.path) belongs to a running constellation-server (pid \(other))")
        }
        do {
            try "\(getpid())\n".write(to: url.appendingPathComponent(Self.ownerFile), atomically: true, encoding: .utf8)
        } catch {
            throw PostgresError(.embeddedServer, message: "cannot create the socket directory \(url.path): \(error.localizedDescription)")
        }
        guard chmod(url.path, 0o700) == 0, owner.map({ chown(url.path, $0.uid, $0.gid) == 0 }) ?? true else {
            throw PostgresError(.embeddedServer, message: "cannot make \(url.path) its server's alone: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the folder if this process made it its own (and leaves another's alone).
    func remove() {
        guard owningProcess() == getpid() else { return }
        try? FileManager.default.removeItem(at: url)
    }

    /// The living process the owner file names, if any.
    private func owningProcess() -> pid_t? {
        let file = url.appendingPathComponent(Self.ownerFile)
        guard Self.isAlive(pidIn: file) else { return nil }
        return Self.pid(in: file)
    }

    /// Removes the socket folders in /tmp that nothing running uses: neither the PostgreSQL in its
    /// lock file nor the Constellation server in its owner file is alive, or, with neither file,
    /// the folder is over a minute old (a start that failed). Returns the folders removed.
    @discardableResult
    package static func sweepStale(now: Date = Date()) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.map { root.appendingPathComponent($0) }.filter { folder in
            guard isStale(folder, now: now) else { return false }
            return (try? FileManager.default.removeItem(at: folder)) != nil
        }
    }

    private static func isStale(_ folder: URL, now: Date) -> Bool {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let pidFiles = files.filter { ($0.hasPrefix(".s.PGSQL.") && $0.hasSuffix(".lock")) || $0 == ownerFile }
        guard pidFiles.isEmpty else {
            return !pidFiles.contains { isAlive(pidIn: folder.appendingPathComponent($0)) }
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate]) as? Date ?? now
        return now.timeIntervalSince(modified) > 60
    }

    /// Whether the process whose id is the first line of `file` is running.
    private static func isAlive(pidIn file: URL) -> Bool {
        guard let pid = pid(in: file) else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The process id on the first line of `file`.
    private static func pid(in file: URL) -> pid_t? {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard let pid = text.split(separator: "\n").first.flatMap({ pid_t($0.trimmingCharacters(in: .whitespaces)) }), pid > 0 else {
            return nil
        }
        return pid
    }

    /// A stable, short name for a path (FNV-1a, 64 bits, in hex): not a secret, just a label.
    private static func fingerprint(_ path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
