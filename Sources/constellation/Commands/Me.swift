import ArgumentParser
import ConstellationModel
import Foundation

struct Me: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or change your profile, export your data, or delete your profile.",
        discussion: "`constellation me` alone is `me show`: your profile; `me --name … --headline …` changes it.",
        subcommands: [ShowProfile.self, CardCommand.self, Export.self, Delete.self, RecoveryCodeCommand.self, Recover.self],
        defaultSubcommand: ShowProfile.self
    )

    struct ShowProfile: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your profile, or change it.")

        @OptionGroup var options: GlobalOptions

        @Option(help: "Change your display name to this.")
        var name: String?

        @Option(help: "Change your headline to this (\"\" clears it).")
        var headline: String?

        func run(in session: Session) async throws {
            let profile =
                name == nil && headline == nil
                ? try await session.client.me()
                : try await session.client.updateMe(ProfileChanges(displayName: name, headline: headline))
            if options.json {
                try Terminal.printJSON(profile)
            } else {
                Terminal.print("\(profile.displayName)\(profile.headline.map { " — \($0)" } ?? "")\nid: \(profile.id)")
            }
        }
    }

    struct Export: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save everything the server keeps about you as JSON.",
            discussion: "Your profile, your keys' dates (never the keys), your connections, the codes you scanned and how often yours were."
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: [.short, .long], help: "Write to this file (readable by you only) instead of stdout.", completion: .file())
        var output: String?

        func run(in session: Session) async throws {
            let bytes = try await session.client.exportPersonalData()
            try OutputFile.write(bytes + (output == nil ? [0x0A] : []), to: output)
            if let output { Terminal.note("Wrote your data to \(output).") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete your profile, keys and connections for good.",
            discussion: "Your connections no longer list you. The key saved on this computer is removed too.")

        @OptionGroup var options: GlobalOptions

        @Flag(help: "Confirm that you mean it: nothing can be undone.")
        var yes = false

        func validate() throws {
            guard yes else {
                throw ValidationError("this deletes your profile, keys and connections for good; add --yes to confirm")
            }
        }

        /// What `me delete --json` prints.
        struct Output: Encodable {
            let deleted: Bool
            let profileId: UUID
        }

        func run() async throws {
            try await reportingErrors {
                let session = try Session(options: options)
                guard let credentials = session.credentials else { throw CommandFailure.credentials("not registered") }
                try await session.client.deleteMe()
                for file in [session.store.credentialsFile, session.store.queueFile] where FileManager.default.fileExists(atPath: file.path)
                {
                    do {
                        try FileManager.default.removeItem(at: file)
                    } catch {
                        throw CommandFailure.io(
                            "your profile is deleted, but \(file.path) could not be removed: \(error.localizedDescription)")
                    }
                }
                if options.json { return try Terminal.printJSON(Output(deleted: true, profileId: credentials.profileId)) }
                Terminal.print(
                    """
                    Your profile \(credentials.profileId) is deleted, with your keys and connections.
                    The key saved on this computer is removed too.
                    """)
            }
        }
    }

    struct RecoveryCodeCommand: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-code",
            abstract: "Make a recovery code: it gets your profile back on a new device if you lose this one.",
            discussion: "It is shown this once; the server keeps only a hash. Making a new one voids the old one; using it uses it up.")

        @OptionGroup var options: GlobalOptions

        func run(in session: Session) async throws {
            let code = try await session.client.createRecoveryCode()
            if options.json { return try Terminal.printJSON(code) }
            Terminal.print(
                """
                Your recovery code (shown this once: keep it somewhere safe, like a password manager):

                    \(code.recoveryCode)

                On a new device, `constellation me recover CODE` gets your profile back. It works once;
                a new code voids this one.
                """)
        }
    }

    struct Recover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Get your profile back on this computer with a recovery code.",
            discussion:
                "The code is used up: make a new one with `constellation me recovery-code`, and revoke the lost device with `constellation device revoke`."
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The recovery code (case, spaces and hyphens do not matter).")
        var code: String

        @Option(help: "A name for this device, as your device list will show it (default: this computer's name).")
        var name: String?

        @Flag(help: "Recover even if this computer already has a profile (its key is forgotten).")
        var force = false

        func run() async throws {
            try await reportingErrors {
                let session = try Session(options: options, credentials: force ? .replaceable : .optional)
                try session.refuseToReplace(force: force)
                let registered = try await session.client.redeemRecoveryCode(
                    RecoveryRedemption(recoveryCode: code, deviceName: name ?? Session.deviceName))
                try await session.save(registered, options: options)
                if !options.json {
                    Terminal.print("That recovery code is used up: make a new one with `constellation me recovery-code`.")
                }
            }
        }
    }
}
