import Client
import ConstellationModel
import Foundation
import Synchronization
import TestSupport
import Testing

/// One version: the Debian package's (its changelog's upstream part), what both programs print for
/// `--version`, and what the server says in `Constellation-Version` on every answer.
@Suite(.tier(.endToEnd)) struct VersionTests {
    let workspace = Workspace()

    /// `0.1.0` of the changelog's first line, `constellation (0.1.0-1) bookworm; urgency=medium`.
    static func packageVersion() throws -> String {
        let changelog = try String(
            contentsOf: TestDatabase.repositoryRoot.appendingPathComponent("Tools/deploy/debian/changelog"), encoding: .utf8)
        let match = try #require(changelog.firstMatch(of: /^constellation \(([0-9.]+)-[^)]+\)/))
        return String(match.output.1)
    }

    @Test func bothProgramsAndTheServerSayThePackagesVersion() async throws {
        let version = try Self.packageVersion()
        #expect(Release.version == version, "Release.version and the changelog's")
        let cli = try Binaries.cli(["--version"], home: try workspace.home("ada"), server: "http://127.0.0.1:9")
        #expect(cli.status == 0 && cli.stdout.trimmingCharacters(in: .newlines) == version, "\(cli.stdout)")
        let server = try Binaries.server(["--version"], databaseURL: nil, scratch: workspace.root)
        #expect(server.status == 0 && server.stdout.trimmingCharacters(in: .newlines) == version, "\(server.stdout)")
        let running = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = running.stop() }
        // Every answer says it, a refusal too: the client hears the header before it throws the 404's problem.
        let seen = Seen()
        let client = ConstellationClient(baseURL: running.url, serverVersion: { seen.record($0) })
        _ = try await client.health()
        _ = try await client.keys()
        await #expect(throws: ClientError.self) { _ = try await client.send(.GET, "/no-such-page") }
        #expect(seen.versions == [version, version, version])
    }

    @Test func aClientSaysWhenTheServerSpeaksAnotherRelease() {
        let (major, minor) = (
            Release.version.split(separator: ".").map { Int($0)! }[0], Release.version.split(separator: ".").map { Int($0)! }[1]
        )
        #expect(Release.mismatch(withServer: Release.version) == nil)
        #expect(Release.mismatch(withServer: "\(major).\(minor).99") == nil, "a patch speaks the same API")
        #expect(Release.mismatch(withServer: "\(major).\(minor + 1).0")?.contains("newer than this client") == true)
        #expect(Release.mismatch(withServer: "\(major + 1).0.0")?.contains("update the client") == true)
        if minor > 0 { #expect(Release.mismatch(withServer: "\(major).\(minor - 1).0")?.contains("older than this client") == true) }
        #expect(Release.mismatch(withServer: "0.0.1")?.contains("older than this client") == true)
        #expect(Release.mismatch(withServer: "nonsense")?.contains("does not say") == true)
    }

    private final class Seen: Sendable {
        private let state = Mutex<[String]>([])
        var versions: [String] { state.withLock { $0 } }
        func record(_ version: String) { state.withLock { $0.append(version) } }
    }
}
