import Client
import ConstellationModel
import Foundation
import Tokens

/// A command's connection to the server: the client with this user's key, the cached keys,
/// and the offline queue, which is sent first whenever the server answers.
struct Session {
    let store: ConfigStore
    let client: ConstellationClient
    let credentials: ConfigStore.Credentials?

    static let defaultServer = "http://127.0.0.1:8080"

    /// What a command needs of the saved credentials.
    enum CredentialsNeed {
        /// Commands that act as the user.
        case required
        /// `register`: reads them to refuse a second registration.
        case optional
        /// `register --force`: they are about to be replaced, so a corrupt file is ignored.
        case replaceable
    }

    init(options: GlobalOptions, credentials need: CredentialsNeed = .required) throws(CommandFailure) {
        store = ConfigStore()
        credentials = need == .replaceable ? try? store.credentials() : try store.credentials()
        if need == .required && credentials == nil {
            throw .credentials("not registered yet: run `constellation register --name \"Your Name\"` first")
        }
        let server =
            options.server ?? ProcessInfo.processInfo.environment["CONSTELLATION_SERVER"]
            ?? credentials?.server ?? Self.defaultServer
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw .data("'\(server)' is not an http(s) URL")
        }
        let authorities = options.caFile ?? ProcessInfo.processInfo.environment["CONSTELLATION_CA_FILE"]
        let given = options.timeout ?? ProcessInfo.processInfo.environment["CONSTELLATION_TIMEOUT"].map { Double($0) ?? .nan }
        let seconds = given ?? 10
        guard seconds.isFinite, seconds >= 0.001, seconds <= 3600 else {
            throw .data("the timeout must be a number of seconds from 0.001 to 3600")
        }
        let timeout = Duration.milliseconds(Int64(seconds * 1000))
        // Connecting gives up after 3 s unless a timeout is given: a scan goes offline at once
        // where no network is, yet a slow network can be given longer.
        client = ConstellationClient(
            baseURL: server, apiKey: credentials?.apiKey,
            transport: try Self.transport(trusting: authorities, connectTimeout: given == nil ? .seconds(3) : timeout),
            timeout: timeout, serverVersion: VersionNotice.hear)
    }

    /// The transport to the server, trusting `authorities` (a PEM file) besides the system's.
    /// The file is read here, so that a wrong path or a file that holds no certificate is said
    /// as such, not as a server that cannot be reached.
    private static func transport(trusting authorities: String?, connectTimeout: Duration) throws(CommandFailure) -> HTTPTransport {
        if let authorities {
            guard let pem = FileManager.default.contents(atPath: authorities) else {
                throw .noInput("cannot read certificate authorities from \(authorities): no such readable file")
            }
            guard String(decoding: pem, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
                throw .data("cannot read certificate authorities from \(authorities): it holds no PEM certificate")
            }
        }
        return HTTPTransport(trusting: authorities, connectTimeout: connectTimeout)
    }

    // MARK: - Keys

    /// The server's public keys, refreshed when it answers and cached for offline verification.
    /// `unreachable` says why the cached keys were used (`why`): nil when the server answered.
    func verificationKeys() async throws(CommandFailure) -> (keys: [String: VerificationKey], unreachable: String?) {
        let keySet: KeySet
        do throws(ClientError) {
            keySet = try await client.keys()
        } catch {
            guard error.isTemporary else { throw CommandFailure(error) }
            guard let cached = try store.read(KeySet.self, from: store.keysFile) else {
                throw .unavailable("\(error), and no keys are cached to check the code offline")
            }
            return (try Self.verificationKeys(cached), Self.why(error))
        }
        try store.write(keySet, to: store.keysFile)
        return (try Self.verificationKeys(keySet), nil)
    }

    /// Why the server could not take a request just now, for a scan kept offline.
    static func why(_ error: ClientError) -> String {
        switch error {
        case .unreachable(_, let reason): "The server cannot be reached (\(reason))"
        case .problem(let problem): "The server cannot record scans just now (\(problem.code))"
        case .unexpectedResponse(let status, _): "The server cannot record scans just now (\(status) from the server or a proxy)"
        }
    }

    static func verificationKeys(_ keySet: KeySet) throws(CommandFailure) -> [String: VerificationKey] {
        var keys: [String: VerificationKey] = [:]
        for key in keySet.keys {
            do {
                keys[key.kid] = VerificationKey(
                    kid: key.kid, publicKey: try PASERK.decodePublicKey(key.publicKey), notBefore: key.notBefore, notAfter: key.notAfter)
            } catch {
                throw .data("the server published a key that is not a k4.public PASERK: \(error)")
            }
        }
        return keys
    }

    // MARK: - Offline queue

    func queuedScans() throws(CommandFailure) -> [ConfigStore.QueuedScan] {
        try store.read([ConfigStore.QueuedScan].self, from: store.queueFile) ?? []
    }

    /// Queues `scan` unless its token is already queued (a code scanned twice is sent once);
    /// returns the scan the queue holds for that token and whether it was just added.
    func enqueue(_ scan: ConfigStore.QueuedScan) throws(CommandFailure) -> (scan: ConfigStore.QueuedScan, added: Bool) {
        try store.update(store.queueFile, as: [ConfigStore.QueuedScan].self) { queue in
            if let queued = queue?.first(where: { $0.token == scan.token }) { return (queued, false) }
            queue = (queue ?? []) + [scan]
            return (scan, true)
        }
    }

    /// One queued scan's fate.
    struct SyncResult: Encodable {
        let clientNonce: String
        let status: String
        let code: String?
        let message: String?
        let redemption: Redemption?
    }

    /// Whether `problem` refuses the scan itself (an expired or used-up code, a block), which
    /// sending it again cannot change; not this CLI's key (invalid or missing credentials), a
    /// wait (408, 429, 499), or an answer the server did not write (a code it does not have):
    /// for those, the scan stays queued, to be sent again.
    static func refusesTheScan(_ problem: Problem) -> Bool {
        guard let known = problem.known, problem.status < 500, ![408, 429, 499].contains(problem.status) else { return false }
        return known != .invalidCredentials && known != .missingCredentials
    }

    /// Sends every queued scan; those the server answered (yes, or no to the scan itself) leave
    /// the queue, those it could not receive or take now stay for next time, as do scans queued
    /// meanwhile.
    func syncQueue() async throws(CommandFailure) -> [SyncResult] {
        let queue = try queuedScans()
        guard !queue.isEmpty else { return [] }
        var results: [SyncResult] = []
        var answered: Set<String> = []
        for scan in queue {
            do throws(ClientError) {
                let redemption = try await client.redeem(
                    RedeemRequest(token: scan.token, scannedAt: scan.scannedAt, clientNonce: scan.clientNonce))
                answered.insert(scan.clientNonce)
                results.append(
                    SyncResult(
                        clientNonce: scan.clientNonce, status: redemption.created ? "connected" : "already_connected",
                        code: nil, message: nil, redemption: redemption))
            } catch .problem(let problem) where Self.refusesTheScan(problem) {
                answered.insert(scan.clientNonce)
                results.append(
                    SyncResult(
                        clientNonce: scan.clientNonce, status: "refused", code: problem.code, message: problem.title, redemption: nil))
            } catch {
                results.append(
                    SyncResult(
                        clientNonce: scan.clientNonce, status: "pending", code: error.code, message: error.description, redemption: nil))
            }
        }
        try store.update(store.queueFile, as: [ConfigStore.QueuedScan].self) { queue in
            queue = queue?.filter { !answered.contains($0.clientNonce) }
        }
        return results
    }

    /// Before a command's own work: refreshes the cached keys (so a later scan can be verified
    /// offline) and sends the offline queue, telling the user on stderr what happened.
    /// Fails at once when the server cannot be reached, rather than waiting for every call to time out.
    func catchUp() async throws(CommandFailure) {
        let keySet: KeySet
        do throws(ClientError) {
            keySet = try await client.keys()
        } catch {
            throw CommandFailure(error)
        }
        try store.write(keySet, to: store.keysFile)
        for result in try await syncQueue() where result.status != "pending" {
            let name = result.redemption?.connection.peer.displayName ?? "someone"
            switch result.status {
            case "refused": Terminal.note("Offline scan \(result.clientNonce) was refused: \(result.message ?? "") [\(result.code ?? "")]")
            default: Terminal.note("Synced an offline scan: connected with \(name).")
            }
        }
    }
}

// MARK: - A new key for this computer

extension Session {
    /// What this computer is called in a device list unless told otherwise: its host name.
    static var deviceName: String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        return String((host.isEmpty ? "constellation CLI" : host).prefix(60))
    }

    /// Refuses to forget a profile this computer has, unless `force`.
    func refuseToReplace(force: Bool) throws(CommandFailure) {
        if let existing = credentials, !force {
            throw .cannotCreate(
                "already registered as profile \(existing.profileId) on \(existing.server); use --force to replace it "
                    + "(if this computer is its only device, first run `constellation me recovery-code` or `constellation device link`, "
                    + "or it is lost; two profiles cannot be merged)")
        }
    }

    /// Saves a new key for this computer (readable by its user only), sends any queued scans with
    /// it, and says so.
    func save(_ registered: RegisteredProfile, options: GlobalOptions) async throws {
        try store.write(
            ConfigStore.Credentials(server: client.baseURL, profileId: registered.profile.id, apiKey: registered.apiKey),
            to: store.credentialsFile)
        try await Session(options: options).catchUp()
        if options.json {
            try Terminal.printJSON(
                SavedKey(
                    profileId: registered.profile.id, apiKey: registered.apiKey, deviceId: registered.device.id,
                    eventId: registered.event?.event.id))
        } else {
            Terminal.print(
                """
                Welcome, \(registered.profile.displayName)! Your profile id is \(registered.profile.id).
                This computer's key is saved in \(store.credentialsFile.path) (readable by you only).
                """)
        }
    }

    /// What `register`, `device join` and `me recover` print with `--json`, for scripts; `eventId`,
    /// the event `register --event` joined.
    struct SavedKey: Encodable {
        let profileId: UUID
        let apiKey: String
        let deviceId: UUID
        let eventId: UUID?
    }
}
