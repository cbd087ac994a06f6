import ConstellationModel
import Foundation
import Tokens

/// The CLI's files in `$XDG_CONFIG_HOME/constellation/` (default `~/.config/constellation/`),
/// readable by their owner only: credentials, the server's cached public keys, the offline queue.
struct ConfigStore {
    let directory: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        directory = base.appendingPathComponent("constellation")
    }

    /// Who this CLI is, on which server.
    struct Credentials: Codable {
        var server: String
        var profileId: UUID
        var apiKey: String
    }

    /// A scan made while the server was unreachable, waiting for `sync`.
    struct QueuedScan: Codable, Equatable {
        var token: String
        var scannedAt: Date
        var clientNonce: String
        var ownerId: String
    }

    var credentialsFile: URL { directory.appendingPathComponent("credentials.json") }
    var keysFile: URL { directory.appendingPathComponent("keys.json") }
    var queueFile: URL { directory.appendingPathComponent("queue.json") }

    /// The saved credentials, or nil before `register`. A file that cannot be read or decoded
    /// is a credentials failure (77), not a mere file error: the fix is to register again.
    func credentials() throws(CommandFailure) -> Credentials? {
        do {
            return try read(Credentials.self, from: credentialsFile)
        } catch {
            throw .credentials("\(error.description); run `constellation register --force` to register again")
        }
    }

    /// The value in `file`, or nil when there is no such file.
    func read<T: Decodable>(_ type: T.Type, from file: URL) throws(CommandFailure) -> T? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .io("cannot read \(file.path): \(error.localizedDescription)")
        }
        guard let value = try? JSONDecoder.constellation.decode(T.self, from: data) else {
            throw .io("\(file.path) is corrupt: it is not the JSON this CLI writes")
        }
        return value
    }

    /// Reads the value in `file` (nil when there is none), lets `change` change it, and writes
    /// it back, holding an exclusive lock on a file beside it all the while: two commands at once
    /// (a scan while `sync` sends the queue) each see the other's change rather than write over it.
    func update<Value: Codable, Result>(
        _ file: URL, as type: Value.Type, _ change: (inout Value?) throws(CommandFailure) -> Result
    ) throws(CommandFailure) -> Result {
        try createDirectory()
        let lockPath = file.appendingPathExtension("lock").path
        let descriptor = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw .io("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        var value = try read(type, from: file)
        let result = try change(&value)
        if let value { try write(value, to: file) }
        return result
    }

    /// Writes atomically (a temporary file of this process's, renamed over the old one) with mode 0600.
    func write(_ value: some Encodable, to file: URL) throws(CommandFailure) {
        try createDirectory()
        do {
            let temporary = file.appendingPathExtension("\(getpid()).tmp")
            let data = try JSONEncoder.constellation.encode(value)
            guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw CommandFailure.io("cannot write \(temporary.path)")
            }
            guard rename(temporary.path, file.path) == 0 else { throw CommandFailure.io("cannot replace \(file.path)") }
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw .io("cannot write \(file.path): \(error.localizedDescription)")
        }
    }

    private func createDirectory() throws(CommandFailure) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io("cannot make \(directory.path): \(error.localizedDescription)")
        }
    }
}
