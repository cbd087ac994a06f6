import Foundation
import Tokens

extension SigningKeyFile {
    /// What `rotate` did.
    public struct Rotation: Sendable {
        /// The key that now signs.
        public let currentKid: String
        /// The key that signed until now, as `retired-keys` lists it.
        public let retired: RetiredKey
        /// Retired keys dropped from the file, expired for longer than `rotate`'s `pruneAfter`.
        public let pruned: [RetiredKey]
    }

    /// Makes a new signing key in `dataDirectory` and retires the current one, trusted for `trust`
    /// more (a token's lifetime plus the offline grace: the last token it signed stays redeemable
    /// that long). Retired keys expired for longer than `pruneAfter` leave the file. One rotation
    /// at a time (a lock file); the files are replaced atomically, `retired-keys` first, so a server
    /// rereading them in between sees the old key still current, never missing. The pseudonym key
    /// is written first if it is not there yet, as the old key derives it: pseudonyms stay.
    public static func rotate(
        dataDirectory: URL, trust: Duration, now: Date = Date(), pruneAfter: TimeInterval = 30 * 86_400
    ) throws -> Rotation {
        let signingKeyFile = dataDirectory.appendingPathComponent(signingKeyName)
        guard FileManager.default.fileExists(atPath: signingKeyFile.path) else { throw SigningKeyError.missing(path: signingKeyFile.path) }
        return try withLock(in: dataDirectory) {
            let material = try loadFiles(dataDirectory: dataDirectory, create: false)
            let pseudonymFile = dataDirectory.appendingPathComponent(pseudonymKeyName)
            if !FileManager.default.fileExists(atPath: pseudonymFile.path) {
                try PrivateFile.replace(pseudonymFile, contents: material.eventPseudonyms.encoded + "\n", mode: 0o600)
            }
            let trustedUntil = Date(
                timeIntervalSince1970: (now.timeIntervalSince1970 + TimeInterval(trust.components.seconds)).rounded(.up))
            let old = try RetiredKey(
                publicKey: material.current.publicKey, since: material.since, retiredAt: now, trustedUntil: trustedUntil)
            let (kept, pruned) = material.retired.filter { $0.kid != old.kid }
                .reduce(into: ([RetiredKey](), [RetiredKey]())) { split, key in
                    if key.trustedUntil.addingTimeInterval(pruneAfter) < now { split.1.append(key) } else { split.0.append(key) }
                }
            let lines = [RetiredKey.fileHeader] + (kept + [old]).map(\.line)
            try PrivateFile.replace(
                dataDirectory.appendingPathComponent(retiredKeysName), contents: lines.joined(separator: "\n") + "\n", mode: 0o644)
            let new = try SigningKey.generate()
            try PrivateFile.replace(dataDirectory.appendingPathComponent(signingKeyName), contents: PASERK.encode(new) + "\n", mode: 0o600)
            return Rotation(currentKid: try VerificationKey.kid(for: new.publicKey), retired: old, pruned: pruned)
        }
    }

    /// New values for keys kept in the environment (`material.fromEnvironment`): a new signing key,
    /// the current one retired for `trust` more, the retired keys still trusted, and the pseudonym
    /// key that `material` uses, so that pseudonyms stay. Each value goes in the variable it is named after.
    public static func environmentRotation(of material: KeyMaterial, trust: Duration, now: Date = Date()) throws -> EnvironmentRotation {
        let trustedUntil = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + TimeInterval(trust.components.seconds)).rounded(.up))
        let old = try RetiredKey(publicKey: material.current.publicKey, since: nil, retiredAt: now, trustedUntil: trustedUntil)
        let kept = material.retired.filter { $0.kid != old.kid && $0.trustedUntil > now }
        let new = try SigningKey.generate()
        return EnvironmentRotation(
            signingKey: PASERK.encode(new), retiredKeys: (kept + [old]).map(\.environmentEntry).joined(separator: ","),
            pseudonymKey: material.eventPseudonyms.encoded, newPublicKey: PASERK.encode(new.publicKey),
            newKid: try VerificationKey.kid(for: new.publicKey), retired: old)
    }

    /// What `environmentRotation` gives: the new variables' values (secrets but `retiredKeys`).
    public struct EnvironmentRotation: Sendable {
        public let signingKey: String
        public let retiredKeys: String
        public let pseudonymKey: String
        public let newPublicKey: String
        public let newKid: String
        public let retired: RetiredKey
    }

    /// Runs `body` holding an exclusive lock on `.keys.lock` in `dataDirectory`.
    private static func withLock<T>(in dataDirectory: URL, _ body: () throws -> T) throws -> T {
        let path = dataDirectory.appendingPathComponent(".keys.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw SigningKeyError.missing(path: dataDirectory.appendingPathComponent(signingKeyName).path) }
            throw SigningKeyError.cannotCreate(path: path, errno: errno)
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw SigningKeyError.cannotCreate(path: path, errno: errno) }
        return try body()
    }
}
