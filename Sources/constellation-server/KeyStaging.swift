import ConstellationModel
import Foundation

/// A restore's key files, written aside in the data directory (a hidden folder of mode 0700, on
/// the same file system) before the database is touched, then moved into place last, each without
/// replacing a file, or taken back.
struct KeyStaging {
    let names: [String]
    let folder: URL
    let dataDirectory: URL

    /// Copies the files `names` of `source` aside in `dataDirectory` (made if missing), mode 0600,
    /// flushed to disk.
    init(_ names: [String], from source: URL, beside dataDirectory: URL) throws {
        self.names = names
        self.dataDirectory = dataDirectory
        folder = dataDirectory.appendingPathComponent(".restore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for name in names {
            let target = folder.appendingPathComponent(name)
            let data = try Data(contentsOf: source.appendingPathComponent(name))
            guard FileManager.default.createFile(atPath: target.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CommandFailure.cannotCreate("cannot write \(target.path)")
            }
            let handle = try FileHandle(forWritingTo: target)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        }
    }

    /// Links every file into the data directory (refusing to replace one that appeared meanwhile)
    /// and flushes the directory; on a failure, what it linked is removed again.
    func moveIntoPlace() throws {
        var placed: [URL] = []
        for name in names {
            let target = dataDirectory.appendingPathComponent(name)
            guard link(folder.appendingPathComponent(name).path, target.path) == 0 else {
                let reason = String(cString: strerror(errno))
                for file in placed { unlink(file.path) }
                throw CommandFailure.cannotCreate("cannot place the key file \(target.path): \(reason)")
            }
            placed.append(target)
        }
        let directory = open(dataDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Removes the files `moveIntoPlace` put in the data directory.
    func takeBack() {
        for name in names { unlink(dataDirectory.appendingPathComponent(name).path) }
    }

    /// Removes the folder aside.
    func discard() {
        try? FileManager.default.removeItem(at: folder)
    }
}
