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

    /// Writes atomically (a temporary file renamed over the old one) with mode 0600.
    func write(_ value: some Encodable, to file: URL) throws(CommandFailure) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = file.appendingPathExtension("tmp")
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
}
