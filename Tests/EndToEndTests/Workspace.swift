import ConstellationModel
import Foundation
import Testing

/// A test's temporary directory: one home (config directory) per person, and the server's data.
struct Workspace {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")

    var serverData: URL { root.appendingPathComponent("server") }

    func home(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Homes, one a name: `let (ada, bob) = try workspace.homes("ada", "bob")`.
    func homes<each Name: StringProtocol>(_ names: repeat each Name) throws -> (repeat Home<each Name>) {
        (repeat try home(String(each names)))
    }

    /// A home, as `homes` gives them (`Name` only counts them).
    typealias Home<Name> = URL

    /// `constellation register --name NAME` in `home`; the new profile's id.
    func register(_ name: String, home: URL, server: String) throws -> UUID {
        let output = try Binaries.cli(["register", "--name", name, "--json"], home: home, server: server)
        #expect(output.status == 0, "\(output.stderr)")
        struct Registered: Decodable {
            let profileId: UUID
            let apiKey: String
        }
        let registered = try JSONDecoder().decode(Registered.self, from: Data(output.stdout.utf8))
        #expect(registered.apiKey.hasPrefix("cst_"))
        return registered.profileId
    }

    /// `constellation event create` in `home`: an event named `name` running from an hour ago to an hour from now.
    func createEvent(_ name: String, slug: String, home: URL, server: String) throws -> CreatedEvent {
        let now = Date()
        let iso = Date.ISO8601FormatStyle()
        let output = try Binaries.cli(
            [
                "event", "create", "--name", name, "--slug", slug, "--starts", now.addingTimeInterval(-3600).formatted(iso),
                "--ends", now.addingTimeInterval(3600).formatted(iso), "--json",
            ], home: home, server: server)
        #expect(output.status == 0, "\(output.stderr)")
        return try JSONDecoder.constellation.decode(CreatedEvent.self, from: Data(output.stdout.utf8))
    }

    /// A fresh token of the person registered in `home`, as `constellation show --token` prints it.
    func token(home: URL, server: String) throws -> String {
        try Binaries.cli(["show", "--token"], home: home, server: server).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
