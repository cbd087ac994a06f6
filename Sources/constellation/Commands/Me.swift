import ArgumentParser
import ConstellationModel

struct Me: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show your profile, or change it with --name / --headline.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "A new display name.")
    var name: String?

    @Option(help: "A new headline (\"\" clears it).")
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
