import Foundation
import Tokens

/// Where the server's signing key comes from: `CONSTELLATION_SIGNING_KEY` (a PASERK `k4.secret`,
/// the same on every instance behind a load balancer), or else a 0600 file in the data directory
/// that is created on first start.
public enum SigningKeyFile {
    public static func loadKeyRing(environment: [String: String], dataDirectory: URL) throws -> KeyRing {
        if let secret = environment["CONSTELLATION_SIGNING_KEY"] {
            return try KeyRing(current: PASERK.decodeSigningKey(secret.trimmingCharacters(in: .whitespacesAndNewlines)), since: Date())
        }
        let file = dataDirectory.appendingPathComponent("signing-key")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: file.path) { try create(file) }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw SigningKeyError.tooOpen(path: file.path, mode: mode)
        }
        let text = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let since = attributes[.modificationDate] as? Date ?? Date()
        return try KeyRing(current: PASERK.decodeSigningKey(text), since: since)
    }

    /// Writes a new key to a file only its owner can read; never overwrites one.
    private static func create(_ file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw SigningKeyError.cannotCreate(path: file.path, errno: errno) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data((PASERK.encode(try SigningKey.generate()) + "\n").utf8))
        try handle.synchronize()
    }
}

public enum SigningKeyError: Error, CustomStringConvertible {
    case tooOpen(path: String, mode: Int)
    case cannotCreate(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .tooOpen(let path, let mode):
            "the signing key \(path) is readable by others (mode \(String(mode, radix: 8))); run: chmod 600 \(path)"
        case .cannotCreate(let path, let errno):
            "cannot create the signing key \(path): \(String(cString: strerror(errno)))"
        }
    }
}
