import Foundation

/// The small files that hold keys: created without ever overwriting, replaced atomically,
/// and refused when others may read them.
package enum PrivateFile {
    /// Writes `contents` to a new file only its owner can read; false when the file exists already.
    static func create(_ file: URL, contents: String) throws -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw SigningKeyError.cannotCreate(path: file.path, errno: errno)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data(contents.utf8))
        try handle.synchronize()
        return true
    }

    /// Replaces `file` with `contents` (mode `mode`) so that a reader sees the old file or the
    /// new one, never a part: a temporary file written and flushed, renamed over it, then the
    /// folder flushed so that the rename survives a crash.
    static func replace(_ file: URL, contents: String, mode: mode_t) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        unlink(temporary.path)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw SigningKeyError.cannotCreate(path: temporary.path, errno: errno) }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            guard fchmod(descriptor, mode) == 0 else { throw SigningKeyError.cannotCreate(path: temporary.path, errno: errno) }
            try handle.write(contentsOf: Data(contents.utf8))
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, file.path) == 0 else { throw SigningKeyError.cannotCreate(path: file.path, errno: errno) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        flushFolder(of: file)
    }

    /// Flushes the folder holding `file`, so that its creation or rename survives a crash.
    package static func flushFolder(of file: URL) {
        let folder = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// The trimmed text of a file that only its owner may read.
    static func read(_ file: URL) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw SigningKeyError.tooOpen(path: file.path, mode: mode)
        }
        return try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func modificationDate(_ file: URL) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date ?? Date()
    }

    /// What identifies a version of a file: device, inode, size and modification time (nil: no such file).
    /// An atomic replacement changes the inode; an edit in place changes the time or the size.
    struct Stamp: Equatable, Sendable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

        init?(_ file: URL) {
            var info = stat()
            guard stat(file.path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }
}
