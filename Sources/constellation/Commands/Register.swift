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

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options, credentials: force ? .replaceable : .optional)
            try session.refuseToReplace(force: force)
            let registered = try await session.client.register(
                NewProfile(displayName: name, headline: headline, deviceName: Session.deviceName))
            try await session.save(registered, options: options)
            if !options.json { Terminal.print("Next: `constellation show` to show your QR code.") }
        }
    }
}
