import Foundation

/// An exclusive lock on a data folder's embedded PostgreSQL (`flock` on `embedded-postgres.lock`
/// in it), held while that server runs: the kernel keeps it for every process on the machine,
/// those of another container on the same volume too, which PostgreSQL's own `postmaster.pid`
/// does not see (a pid is only a number in the container that wrote it). Released when this is
/// let go, or when its process dies however it dies.
package final class DataFolderLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, or refuses (`alreadyRunning`) while another process holds it.
    package init(_ dataDirectory: URL) throws(PostgresError) {
        let path = dataDirectory.appendingPathComponent("embedded-postgres.lock").path
        try? FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw PostgresError(.embeddedServer, message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw PostgresError(
                .alreadyRunning,
                message: "the embedded PostgreSQL in \(dataDirectory.path) is in use by another constellation-server "
                    + "(another container on the same volume?): stop that one first")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
