import Foundation
import Synchronization
import Tokens

/// The key ring in use, replaced when the key files change (`constellation-server keys rotate`):
/// every request reads `current` once and works with that ring.
public final class KeyRingStore: Sendable {
    private struct State {
        var ring: KeyRing
        /// The key files as they were when last read (or when reading them last failed).
        var stamps: [PrivateFile.Stamp?]
    }

    private let state: Mutex<State>
    /// The folder whose key files are reread; nil for keys that never change here (the environment's, or a test's).
    public let dataDirectory: URL?

    /// A ring that stays as it is.
    public init(_ ring: KeyRing) {
        state = Mutex(State(ring: ring, stamps: []))
        dataDirectory = nil
    }

    /// The keys of the environment or of `dataDirectory` (see `SigningKeyFile.load`, which may create them);
    /// file keys are reread by `reloadIfChanged`.
    public init(environment: [String: String], dataDirectory: URL) throws {
        let stamps = Self.stamps(in: dataDirectory)
        let material = try SigningKeyFile.load(environment: environment, dataDirectory: dataDirectory)
        // Stamps taken before the files were read: a change in between is seen at the next check.
        state = Mutex(State(ring: try material.keyRing(), stamps: material.fromEnvironment ? [] : stamps))
        self.dataDirectory = material.fromEnvironment ? nil : dataDirectory
    }

    /// The ring to sign and verify with now.
    public var current: KeyRing { state.withLock { $0.ring } }

    /// Rereads the key files if any changed since they were last read, and answers whether the ring
    /// was replaced. Files that cannot be read or used leave the ring as it is and throw, once per change.
    @discardableResult
    public func reloadIfChanged() throws -> Bool {
        guard let dataDirectory else { return false }
        let stamps = Self.stamps(in: dataDirectory)
        guard stamps != state.withLock({ $0.stamps }) else { return false }
        let ring: KeyRing
        do {
            ring = try SigningKeyFile.load(environment: [:], dataDirectory: dataDirectory, create: false).keyRing()
        } catch {
            state.withLock { $0.stamps = stamps }
            throw error
        }
        state.withLock { $0 = State(ring: ring, stamps: stamps) }
        return true
    }

    private static func stamps(in dataDirectory: URL) -> [PrivateFile.Stamp?] {
        [SigningKeyFile.signingKeyName, SigningKeyFile.retiredKeysName, SigningKeyFile.pseudonymKeyName].map {
            PrivateFile.Stamp(dataDirectory.appendingPathComponent($0))
        }
    }
}
