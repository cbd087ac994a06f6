import ConstellationModel
import Foundation
import Keys
import Tokens

/// One file holding a whole backup: the database's dump, the server's key files, and a manifest of
/// checksums, as a ustar archive (`tar tvf` lists it) of mode 0600.
public enum BackupArchive {
    /// The manifest's name in the archive (its last entry).
    public static let manifestName = "constellation-backup.json"
    /// The database dump's name (`pg_dump --format=custom`).
    public static let databaseName = "database.dump"
    /// The folder of the key files in the archive.
    public static let keysFolder = "keys/"

    private static let chunk = 1 << 20

    /// Writes `files` (the name each has in the archive, and where it is now) with a manifest to
    /// `output`, through a temporary file beside it renamed at the end: a failure leaves no
    /// partial archive. Refuses an `output` that exists.
    @discardableResult
    public static func write(
        to output: URL, files: [(name: String, source: URL)], migrations: [String], keysFromEnvironment: Bool, now: Date = Date()
    ) throws(BackupError) -> BackupManifest {
        guard !FileManager.default.fileExists(atPath: output.path) else { throw .io("\(output.path) exists already; choose another name") }
        let partial = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).partial-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw .io("cannot create \(partial.path)")
        }
        do {
            let sink = try FileHandle(forWritingTo: partial)
            defer { try? sink.close() }
            var listed: [BackupManifest.File] = []
            for (name, source) in files {
                listed.append(try copy(source, as: name, to: sink, now: now))
            }
            let manifest = BackupManifest(
                format: BackupManifest.currentFormat, createdAt: now, migrations: migrations, keysFromEnvironment: keysFromEnvironment,
                files: listed)
            let encoder = JSONEncoder.constellation
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let json = try encoder.encode(manifest)
            try sink.write(contentsOf: Tar.header(name: manifestName, size: json.count, modified: now))
            try sink.write(contentsOf: json)
            try sink.write(contentsOf: [UInt8](repeating: 0, count: Tar.padding(after: json.count) + 2 * Tar.blockSize))
            try sink.synchronize()
            try FileManager.default.moveItem(at: partial, to: output)
            PrivateFile.flushFolder(of: output)
            return manifest
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error as? BackupError ?? .io("cannot write \(output.path): \(error.localizedDescription)")
        }
    }

    /// Appends `source` as `name`, hashing it on the way.
    private static func copy(_ source: URL, as name: String, to sink: FileHandle, now: Date) throws -> BackupManifest.File {
        let size = try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int ?? 0
        try sink.write(contentsOf: Tar.header(name: name, size: size, modified: now))
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        let hasher = try SHA256()
        var copied = 0
        while let data = try input.read(upToCount: chunk), !data.isEmpty {
            data.withUnsafeBytes { hasher.add($0) }
            try sink.write(contentsOf: data)
            copied += data.count
        }
        guard copied == size else { throw BackupError.io("\(source.path) changed while it was copied") }
        try sink.write(contentsOf: [UInt8](repeating: 0, count: Tar.padding(after: size)))
        return BackupManifest.File(name: name, bytes: size, sha256: hasher.hex())
    }

    /// The most a key file may hold: a key is a line, the retired keys a line per rotation.
    public static let keyFileLimit = 64 * 1024

    /// Unpacks `archive` into `directory` (made if missing), checking it before a byte is written:
    /// its headers are read first, the manifest (its last member) with them, and every member must
    /// be one the manifest lists, of the size it says, under a name a backup writes (the dump, and
    /// the key files `SigningKeyFile.fileNames` under `keys/`, each at most `keyFileLimit`). Then
    /// each file is unpacked and checked against its checksum. Returns the manifest; on any
    /// failure, the caller discards `directory`.
    public static func extract(_ archive: URL, into directory: URL) throws(BackupError) -> BackupManifest {
        do {
            let input = try FileHandle(forReadingFrom: archive)
            defer { try? input.close() }
            let members = try listing(input, length: try input.seekToEnd())
            let manifest = try readManifest(members, from: input)
            let listed = Dictionary(manifest.files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            guard listed.count == manifest.files.count else { throw BackupError.altered("its manifest lists a file twice") }
            for member in members.dropLast() {
                guard let file = listed[member.name] else {
                    throw BackupError.altered("it holds \(member.name), which its manifest does not list")
                }
                guard file.bytes == member.size else { throw BackupError.altered("\(member.name) is not the size its manifest says") }
            }
            for file in manifest.files {
                try checkName(file.name, size: file.bytes)
                guard members.contains(where: { $0.name == file.name }) else { throw BackupError.altered("\(file.name) is missing") }
            }
            guard listed[databaseName] != nil else { throw BackupError.foreign("it holds no database dump") }

            try FileManager.default.createDirectory(at: directory.appendingPathComponent(keysFolder), withIntermediateDirectories: true)
            for member in members.dropLast() {
                try input.seek(toOffset: member.offset)
                let unpacked = try unpack(member.name, size: member.size, from: input, into: directory)
                guard unpacked == listed[member.name] else { throw BackupError.altered("\(member.name) does not match its checksum") }
            }
            return manifest
        } catch let error as BackupError {
            throw error
        } catch {
            throw .io("cannot unpack \(archive.path) into \(directory.path): \(error.localizedDescription)")
        }
    }

    /// A member of the archive: its name, size, and where its bytes begin.
    private struct Member {
        let name: String
        let size: Int
        let offset: UInt64
    }

    /// Every member's header, read without reading the members (a member's bytes are skipped):
    /// one member a name, the manifest last.
    private static func listing(_ input: FileHandle, length: UInt64) throws -> [Member] {
        try input.seek(toOffset: 0)
        var members: [Member] = []
        var offset: UInt64 = 0
        reading: while true {
            try input.seek(toOffset: offset)
            let block = try read(Tar.blockSize, from: input, what: members.isEmpty ? "its first header" : "a header")
            offset += UInt64(Tar.blockSize)
            switch try Tar.parse([UInt8](block)) {
            case .end: break reading
            case .directory: continue
            case .file(let name, let size):
                guard members.last?.name != manifestName else { throw BackupError.altered("\(name) comes after the manifest") }
                guard !members.contains(where: { $0.name == name }) else { throw BackupError.altered("\(name) appears twice") }
                let end = offset + UInt64(size + Tar.padding(after: size))
                guard end <= length else { throw BackupError.truncated("it ends inside \(name)") }
                members.append(Member(name: name, size: size, offset: offset))
                offset = end
            }
        }
        guard members.last?.name == manifestName else { throw BackupError.foreign("it has no manifest (\(manifestName)) at its end") }
        return members
    }

    /// The manifest, the last member: at most 1 MiB, of this format.
    private static func readManifest(_ members: [Member], from input: FileHandle) throws -> BackupManifest {
        let member = members[members.count - 1]
        guard member.size <= chunk else { throw BackupError.foreign("the manifest is too large") }
        try input.seek(toOffset: member.offset)
        let data = try read(member.size, from: input, what: manifestName)
        guard let manifest = try? JSONDecoder.constellation.decode(BackupManifest.self, from: data),
            manifest.format == BackupManifest.currentFormat
        else { throw BackupError.foreign("its manifest is not a \(BackupManifest.currentFormat) manifest") }
        return manifest
    }

    /// Refuses a name a backup never writes, and a key file over `keyFileLimit`.
    private static func checkName(_ name: String, size: Int) throws(BackupError) {
        if name == databaseName { return }
        guard name.hasPrefix(keysFolder), SigningKeyFile.fileNames.contains(String(name.dropFirst(keysFolder.count))) else {
            throw .foreign("it holds \(name.debugDescription), which no backup writes")
        }
        guard size <= keyFileLimit else { throw .foreign("its key file \(name) is \(size) bytes: over \(keyFileLimit / 1024) KiB") }
    }

    /// Exactly `count` bytes, or `truncated`.
    private static func read(_ count: Int, from input: FileHandle, what: String) throws -> Data {
        guard count > 0 else { return Data() }
        let data = try input.read(upToCount: count) ?? Data()
        guard data.count == count else { throw BackupError.truncated("it ends inside \(what)") }
        return data
    }

    /// Writes an entry's `size` bytes to `directory/name`, mode 0600, hashing them.
    private static func unpack(_ name: String, size: Int, from input: FileHandle, into directory: URL) throws -> BackupManifest.File {
        let target = directory.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: target.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw BackupError.io("cannot create \(target.path)")
        }
        let sink = try FileHandle(forWritingTo: target)
        defer { try? sink.close() }
        let hasher = try SHA256()
        var left = size
        while left > 0 {
            let data = try read(min(left, chunk), from: input, what: name)
            data.withUnsafeBytes { hasher.add($0) }
            try sink.write(contentsOf: data)
            left -= data.count
        }
        return BackupManifest.File(name: name, bytes: size, sha256: hasher.hex())
    }
}
