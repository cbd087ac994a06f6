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

    @Option(help: "Join this event (its slug or id) as you register, with --code: what its join link or wall holds.")
    var event: String?

    @Option(help: "The event's join code (XXXX-XXXX).")
    var code: String?

    @Flag(help: "Register a new profile even if this computer already has one (the old key is forgotten).")
    var force = false

    func validate() throws {
        guard (event == nil) == (code == nil) else { throw ValidationError("give --event and --code together") }
    }

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options, credentials: force ? .replaceable : .optional)
            try session.refuseToReplace(force: force)
            let registered = try await session.client.register(
                NewProfile(displayName: name, headline: headline, deviceName: Session.deviceName, event: event, joinCode: code))
            try await session.save(registered, options: options)
            guard !options.json else { return }
            if let joined = registered.event { Terminal.print("You joined \(joined.event.name) as an attendee.") }
            Terminal.print("Next: `constellation show` to show your QR code.")
        }
    }
}
