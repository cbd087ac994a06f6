import Foundation
import Tokens

/// Where the server's keys come from.
///
/// From the data directory: `signing-key` (the current key, a PASERK `k4.secret`, mode 0600,
/// created on first start), `retired-keys` (the public halves of earlier keys and how long they
/// stay trusted, written by `constellation-server keys rotate`) and `pseudonym-key` (the secret
/// behind organizers' pseudonyms, mode 0600, created once and kept across rotations).
///
/// Or from the environment, the same on every instance behind a load balancer:
/// `CONSTELLATION_SIGNING_KEY`, `CONSTELLATION_RETIRED_KEYS` and `CONSTELLATION_PSEUDONYM_KEY`.
public enum SigningKeyFile {
    static let signingKeyName = "signing-key"
    static let retiredKeysName = "retired-keys"
    static let pseudonymKeyName = "pseudonym-key"
    /// The key files a data directory may hold, the signing key first.
    public static let fileNames = [signingKeyName, retiredKeysName, pseudonymKeyName]
    /// The variable that, when set, moves every key into the environment.
    public static let environmentVariable = "CONSTELLATION_SIGNING_KEY"

    /// The key ring of the environment or the data directory (see `load`).
    public static func loadKeyRing(environment: [String: String], dataDirectory: URL) throws -> KeyRing {
        try load(environment: environment, dataDirectory: dataDirectory).keyRing()
    }

    /// The keys in the environment when `CONSTELLATION_SIGNING_KEY` is set, else in `dataDirectory`'s files.
    /// With `create`, a missing signing key is created (with a new random pseudonym key), and a missing
    /// pseudonym key is written as the signing key derives it, so that pseudonyms stay what they were
    /// before the file existed; without it, a missing signing key is an error and nothing is written.
    public static func load(environment: [String: String], dataDirectory: URL, create: Bool = true) throws -> KeyMaterial {
        if let secret = environment["CONSTELLATION_SIGNING_KEY"] {
            return try loadEnvironment(environment, secret: secret).checked(
                signingKey: "CONSTELLATION_SIGNING_KEY", retiredKeys: "CONSTELLATION_RETIRED_KEYS")
        }
        for name in ["CONSTELLATION_RETIRED_KEYS", "CONSTELLATION_PSEUDONYM_KEY"] where environment[name] != nil {
            throw SigningKeyError.malformed(
                source: name, line: nil,
                why: "it goes with CONSTELLATION_SIGNING_KEY; "
                    + "with keys in the data directory, `keys rotate` keeps them in its files")
        }
        return try loadFiles(dataDirectory: dataDirectory, create: create).checked(
            signingKey: dataDirectory.appendingPathComponent(signingKeyName).path,
            retiredKeys: dataDirectory.appendingPathComponent(retiredKeysName).path)
    }

    static func loadEnvironment(_ environment: [String: String], secret: String) throws(SigningKeyError) -> KeyMaterial {
        let current = try decode("CONSTELLATION_SIGNING_KEY") {
            try PASERK.decodeSigningKey(secret.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let retired =
            try environment["CONSTELLATION_RETIRED_KEYS"].map { text throws(SigningKeyError) in
                try RetiredKey.parseEnvironment(text, variable: "CONSTELLATION_RETIRED_KEYS")
            } ?? []
        let pseudonyms = try decode("CONSTELLATION_PSEUDONYM_KEY") {
            if let text = environment["CONSTELLATION_PSEUDONYM_KEY"] {
                return try PseudonymKey(encoded: text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return try PseudonymKey(purpose: PseudonymKey.eventPurpose, signingKey: current)
        }
        return KeyMaterial(current: current, since: Date(), retired: retired, eventPseudonyms: pseudonyms, fromEnvironment: true)
    }

    static func loadFiles(dataDirectory: URL, create: Bool) throws -> KeyMaterial {
        let file = dataDirectory.appendingPathComponent(signingKeyName)
        var created = false
        if !FileManager.default.fileExists(atPath: file.path) {
            guard create else { throw SigningKeyError.missing(path: file.path) }
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            created = try PrivateFile.create(file, contents: PASERK.encode(try SigningKey.generate()) + "\n")
        }
        let since = try PrivateFile.modificationDate(file)
        let current = try decode(file.path) { try PASERK.decodeSigningKey(try PrivateFile.read(file)) }

        let retiredFile = dataDirectory.appendingPathComponent(retiredKeysName)
        let retired =
            FileManager.default.fileExists(atPath: retiredFile.path)
            ? try RetiredKey.parseFile(try String(contentsOf: retiredFile, encoding: .utf8), source: retiredFile.path) : []

        let pseudonymFile = dataDirectory.appendingPathComponent(pseudonymKeyName)
        if !FileManager.default.fileExists(atPath: pseudonymFile.path) {
            let key = try created ? PseudonymKey.generate() : PseudonymKey(purpose: PseudonymKey.eventPurpose, signingKey: current)
            guard create else {
                return KeyMaterial(current: current, since: since, retired: retired, eventPseudonyms: key, fromEnvironment: false)
            }
            // When another process wrote it first, its key is the one read below.
            _ = try PrivateFile.create(pseudonymFile, contents: key.encoded + "\n")
        }
        let pseudonyms = try decode(pseudonymFile.path) { try PseudonymKey(encoded: try PrivateFile.read(pseudonymFile)) }
        return KeyMaterial(current: current, since: since, retired: retired, eventPseudonyms: pseudonyms, fromEnvironment: false)
    }

    /// `body`'s value; a key that does not decode is reported with where it came from.
    private static func decode<T>(_ source: String, _ body: () throws -> T) throws(SigningKeyError) -> T {
        do {
            return try body()
        } catch let error as SigningKeyError {
            throw error
        } catch {
            throw .malformed(source: source, line: nil, why: "\(error)")
        }
    }
}

/// The server's keys as the data directory or the environment hold them.
public struct KeyMaterial: Sendable {
    /// The key that signs new tokens.
    public let current: SigningKey
    /// When `current` began signing: its file's modification time, or now for a key from the environment.
    public let since: Date
    /// Earlier keys, in the order they were retired.
    public let retired: [RetiredKey]
    public let eventPseudonyms: PseudonymKey
    /// Whether the keys come from `CONSTELLATION_SIGNING_KEY` (which `keys rotate` cannot change).
    public let fromEnvironment: Bool

    /// Itself, if each key is a secret and each retired key is listed once: the signing key's seed
    /// is not all zeros (anyone could sign with it), no retired key is all zeros, and none is
    /// listed twice (a copy gone wrong, which would be trusted past its own dates). A retired key
    /// equal to the signing key is let be: a rotation writes `retired-keys` before `signing-key`,
    /// and a reader in between sees exactly that. A pseudonym key of all zeros is refused where it
    /// is read (`PseudonymKey`).
    func checked(signingKey: String, retiredKeys: String) throws(SigningKeyError) -> KeyMaterial {
        let zeros = [UInt8](repeating: 0, count: 32)
        if let zeroSeed = try? SigningKey(seed: zeros).publicKey, current.publicKey == zeroSeed {
            throw .malformed(source: signingKey, line: nil, why: "its seed is all zeros: it is no secret")
        }
        var seen: Set<[UInt8]> = []
        for key in retired {
            guard key.publicKey.bytes != zeros else {
                throw .malformed(source: retiredKeys, line: nil, why: "the retired key \(key.kid) is all zeros: it is no key")
            }
            guard seen.insert(key.publicKey.bytes).inserted else {
                throw .malformed(source: retiredKeys, line: nil, why: "the retired key \(key.kid) is listed twice")
            }
        }
        return self
    }

    public func keyRing() throws(TokenError) -> KeyRing {
        try KeyRing(current: current, since: since, retired: retired.map(\.verificationKey), eventPseudonyms: eventPseudonyms)
    }
}

public enum SigningKeyError: Error, CustomStringConvertible {
    case tooOpen(path: String, mode: Int)
    case cannotCreate(path: String, errno: Int32)
    case missing(path: String)
    /// A key file or variable that cannot be used; `line` is the line or entry, from 1.
    case malformed(source: String, line: Int?, why: String)

    public var description: String {
        switch self {
        case .tooOpen(let path, let mode):
            "the key file \(path) is readable by others (mode \(String(mode, radix: 8))); run: chmod 600 \(path)"
        case .cannotCreate(let path, let errno):
            "cannot write the key file \(path): \(String(cString: strerror(errno)))"
        case .missing(let path):
            "there is no signing key at \(path) (the server creates one when it first starts); check --data-dir"
        case .malformed(let source, let line, let why):
            "\(source)\(line.map { " line \($0)" } ?? ""): \(why)"
        }
    }
}
