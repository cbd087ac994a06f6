import ConstellationModel
import Foundation
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

    /// Unpacks `archive` into `directory` (made if missing), checking every file against the
    /// manifest: the archive is whole, nothing in it was changed, it holds nothing else, and its
    /// format is this one. Returns the manifest; on any failure, the caller discards `directory`.
    public static func extract(_ archive: URL, into directory: URL) throws(BackupError) -> BackupManifest {
        do {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(keysFolder), withIntermediateDirectories: true)
            let input = try FileHandle(forReadingFrom: archive)
            defer { try? input.close() }
            var found: [String: BackupManifest.File] = [:]
            var manifestData: Data?
            reading: while true {
                let block = try read(Tar.blockSize, from: input, what: found.isEmpty ? "its first header" : "a header")
                switch try Tar.parse([UInt8](block)) {
                case .end: break reading
                case .directory: continue
                case .file(let name, let size):
                    guard found[name] == nil, manifestData == nil else {
                        throw BackupError.altered("\(name) appears twice, or after the manifest")
                    }
                    if name == manifestName {
                        guard size <= chunk else { throw BackupError.foreign("the manifest is too large") }
                        manifestData = try read(size, from: input, what: name)
                    } else {
                        guard
                            name == databaseName
                                || (name.hasPrefix(keysFolder) && !name.dropFirst(keysFolder.count).contains("/")
                                    && !name.dropFirst(keysFolder.count).hasPrefix("."))
                        else { throw BackupError.foreign("it holds \(name)") }
                        found[name] = try unpack(name, size: size, from: input, into: directory)
                    }
                    _ = try read(Tar.padding(after: size), from: input, what: name)
                }
            }
            guard let manifestData else { throw BackupError.foreign("it has no manifest (\(manifestName))") }
            guard let manifest = try? JSONDecoder.constellation.decode(BackupManifest.self, from: manifestData),
                manifest.format == BackupManifest.currentFormat
            else { throw BackupError.foreign("its manifest is not a \(BackupManifest.currentFormat) manifest") }
            for file in manifest.files {
                guard let actual = found[file.name] else { throw BackupError.altered("\(file.name) is missing") }
                guard actual == file else { throw BackupError.altered("\(file.name) does not match its checksum") }
            }
            guard found.count == manifest.files.count else { throw BackupError.altered("it holds files its manifest does not list") }
            guard found[databaseName] != nil else { throw BackupError.foreign("it holds no database dump") }
            return manifest
        } catch let error as BackupError {
            throw error
        } catch {
            throw .io("cannot read \(archive.path): \(error.localizedDescription)")
        }
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
