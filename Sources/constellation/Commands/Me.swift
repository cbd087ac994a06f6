import ArgumentParser
import ConstellationModel

struct Me: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show your profile, or change it.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Change your display name to this.")
    var name: String?

    @Option(help: "Change your headline to this (\"\" clears it).")
    var headline: String?

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options)
            try await session.catchUp()
            let profile = name == nil && headline == nil
                ? try await session.client.me()
                : try await session.client.updateMe(ProfileChanges(displayName: name, headline: headline))
            if options.json {
                try Terminal.printJSON(profile)
            } else {
                Terminal.print("\(profile.displayName)\(profile.headline.map { " — \($0)" } ?? "")\nid: \(profile.id)")
            }
        }
    }
}
