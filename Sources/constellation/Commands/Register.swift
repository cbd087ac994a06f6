import ArgumentParser
import ConstellationModel
import Foundation

struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create your profile and save its key on this computer.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Your name as others will see it.")
    var name: String

    @Option(help: "A short line about you (optional).")
    var headline: String?

    @Flag(help: "Register a new profile even if this computer already has one (the old key is forgotten).")
    var force = false

    /// What `register --json` prints, for scripts.
    struct Output: Encodable { let profileId: UUID; let apiKey: String }

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options, credentials: force ? .replaceable : .optional)
            if let existing = session.credentials, !force {
                throw CLIError.cannotCreate("already registered as profile \(existing.profileId) on \(existing.server); use --force to replace it")
            }
            let registered = try await session.client.register(NewProfile(displayName: name, headline: headline))
            try session.store.write(
                ConfigStore.Credentials(server: session.client.baseURL, profileId: registered.profile.id, apiKey: registered.apiKey),
                to: session.store.credentialsFile)
            try await Session(options: options).catchUp()
            if options.json {
                try Terminal.printJSON(Output(profileId: registered.profile.id, apiKey: registered.apiKey))
            } else {
                Terminal.print("""
                    Welcome, \(registered.profile.displayName)! Your profile id is \(registered.profile.id).
                    Your key is saved in \(session.store.credentialsFile.path) (readable by you only).
                    Next: `constellation show` to show your QR code.
                    """)
            }
        }
    }
}
