import ArgumentParser
import ConstellationModel
import Foundation
import Keys
import Server
import Tokens

/// `constellation-server keys list|rotate`: the keys that sign and verify connection tokens.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show and rotate the keys that sign connection tokens.",
        subcommands: [KeysList.self, KeysRotate.self]
    )
}

/// The keys as the data directory (or the environment) holds them, and the ring they make.
private func loadKeys(_ common: CommonOptions) throws -> (material: KeyMaterial, ring: KeyRing) {
    let environment = ProcessInfo.processInfo.environment
    let material = try SigningKeyFile.load(environment: environment, dataDirectory: common.dataDirectory(environment), create: false)
    return (material, try material.keyRing())
}

struct KeysList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the signing keys: each key's id, status (current, retired, expired), since when and until when it is trusted."
    )

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print {\"keys\": [...], \"offlineGraceSeconds\"} as GET /v1/keys does, expired keys included.")
    var json = false

    func run() async throws {
        try await CommandFailure.reporting {
            let configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
            let keys = try loadKeys(common).ring.publishedKeys()
            if json {
                let set = KeySet(keys: keys, offlineGraceSeconds: Int(configuration.offlineGrace.components.seconds))
                return print(String(decoding: try JSONEncoder.constellation.encode(set), as: UTF8.self))
            }
            let rows =
                [["KID", "STATUS", "SINCE", "TRUSTED UNTIL"]]
                + keys.map { key in
                    [
                        key.kid, key.status.rawValue, key.notBefore.timeIntervalSince1970 == 0 ? "-" : Self.format(key.notBefore),
                        key.notAfter.map(Self.format) ?? "-",
                    ]
                }
            let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                print(
                    zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                        .trimmingCharacters(in: .whitespaces))
            }
        }
    }

    static func format(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }
}

struct KeysRotate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Make a new signing key; the old one verifies the tokens it signed until they can no longer be redeemed.",
        discussion: """
            The old key's public half goes to retired-keys in the data directory, trusted for a token's lifetime plus \
            the offline grace (CONSTELLATION_TOKEN_TTL_SECONDS + CONSTELLATION_OFFLINE_GRACE_SECONDS) from now; retired \
            keys expired for over 30 days leave the file. A server using the data directory rereads its key files every \
            2 seconds: no restart. Pseudonyms stay. With CONSTELLATION_SIGNING_KEY set, the keys live in the environment: \
            --print-environment prints new values for it instead.
            """
    )

    @OptionGroup var common: CommonOptions

    @Flag(help: "With keys in the environment (CONSTELLATION_SIGNING_KEY): print new values for its variables; nothing is written.")
    var printEnvironment = false

    func run() async throws {
        try await CommandFailure.reporting {
            let environment = ProcessInfo.processInfo.environment
            let configuration = try ServerConfiguration(environment: environment)
            let trust = configuration.tokenLifetime + configuration.offlineGrace
            guard environment["CONSTELLATION_SIGNING_KEY"] == nil else {
                guard printEnvironment else {
                    throw CommandFailure.configuration(
                        "the signing key comes from CONSTELLATION_SIGNING_KEY, which this command cannot change: "
                            + "run `constellation-server keys rotate --print-environment` for new values, set them on every instance and "
                            + "restart the instances one by one (docs/tokens-and-keys.md, \"Keys in the environment\")")
                }
                return try printNewEnvironment(loadKeys(common).material, trust: trust)
            }
            guard !printEnvironment else {
                throw ValidationError("--print-environment is for keys kept in CONSTELLATION_SIGNING_KEY; these are in files")
            }
            let directory = common.dataDirectory(environment)
            try Self.refuseAnotherOwner(of: directory)
            let rotation = try SigningKeyFile.rotate(dataDirectory: directory, trust: trust)
            print(
                """
                Rotated the signing key in \(directory.path).
                New key \(rotation.currentKid) signs from now on; \(rotation.retired.kid), retired, verifies the tokens it signed \
                until \(KeysList.format(rotation.retired.trustedUntil)).
                A server using this data directory takes the new key within 2 seconds, without a restart.
                """)
            if !rotation.pruned.isEmpty {
                print("Removed \(rotation.pruned.count) long-expired key(s): \(rotation.pruned.map(\.kid).joined(separator: ", ")).")
            }
        }
    }

    /// Refuses keys kept by another user than the one running this command (root, say, for the
    /// service's): the key it writes would be theirs, and the server, unable to read it, would go
    /// on with the old one until it expires, and not start again.
    private static func refuseAnotherOwner(of directory: URL) throws {
        let key = directory.appendingPathComponent(SigningKeyFile.fileNames[0]).path
        guard let owner = (try? FileManager.default.attributesOfItem(atPath: key))?[.ownerAccountID] as? NSNumber,
            owner.uint32Value != geteuid()
        else { return }
        let name = getpwuid(owner.uint32Value).map { String(cString: $0.pointee.pw_name) } ?? "uid \(owner)"
        throw CommandFailure.configuration(
            "the keys in \(directory.path) are \(name)'s: rotate them as \(name) "
                + "(runuser -u \(name) -- constellation-server keys rotate), so that the server can read the new key")
    }

    private func printNewEnvironment(_ material: KeyMaterial, trust: Duration) throws {
        let rotation = try SigningKeyFile.environmentRotation(of: material, trust: trust)
        print(
            """
            # New key \(rotation.newKid); \(rotation.retired.kid) retired, trusted until \(KeysList.format(rotation.retired.trustedUntil)).
            # Secrets: keep them where CONSTELLATION_SIGNING_KEY is kept. The new key's public half, for instances that
            # should verify its tokens before they sign with it: \(rotation.newPublicKey)
            CONSTELLATION_SIGNING_KEY=\(rotation.signingKey)
            CONSTELLATION_RETIRED_KEYS=\(rotation.retiredKeys)
            CONSTELLATION_PSEUDONYM_KEY=\(rotation.pseudonymKey)
            """)
    }
}
