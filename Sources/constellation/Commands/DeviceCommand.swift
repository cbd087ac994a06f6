import ArgumentParser
import Client
import ConstellationModel
import Foundation
import QR

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Use your profile on several devices: link a new one, list, rename or revoke them.",
        discussion: """
            On a device that is signed in, `constellation device link` shows a QR code and a code to type; \
            on the new one, `constellation device join CODE` (or the link, or `--image` with a photo of the QR code). \
            A link works once, for two minutes. It goes both ways with the web client: a browser takes the code on \
            its home page ("Already have a profile on another device?"), and shows one under "My devices" → \
            "Link another device" for `device join` here. A computer that holds a profile already replaces it only \
            with `device join --force`; two profiles cannot be merged.
            """,
        subcommands: [Link.self, Join.self, List.self, Rename.self, Revoke.self]
    )

    struct Link: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a one-time link for a new device, and wait until it is used.")

        @OptionGroup var options: GlobalOptions

        @Flag(help: "Print the link and return at once instead of waiting until it is used.")
        var noWait = false

        @Flag(help: "Draw dark modules on a light terminal background (the default suits dark backgrounds).")
        var light = false

        func run(in session: Session) async throws {
            let link = try await session.client.createDeviceLink()
            if options.json {
                try Terminal.printJSON(link)
            } else {
                Terminal.print(try QRCode(encoding: link.qrText).terminalText(darkOnLight: light))
                Terminal.print(
                    """
                    On the new device: `constellation device join \(link.code)` (or scan this code).
                    It works once, until \(Show.time(link.expiresAt)).
                    """)
            }
            guard !noWait else { return }
            while true {
                try await Task.sleep(for: .seconds(1))
                let status = try await session.client.deviceLink(link.id)
                switch status.state {
                case .pending:
                    continue
                case .used:
                    if options.json { return try Terminal.printJSON(status) }
                    return Terminal.print("Linked: \(status.device?.name ?? "a new device") now uses your profile.")
                case .expired:
                    throw CommandFailure.data("the link expired unused; run `constellation device link` again")
                }
            }
        }
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Use the profile of another device of yours, by the link it shows.",
            discussion: "Give the code it shows (XXXXX-XXXXX), the link, or `--image` with a photo of its QR code.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The code (XXXXX-XXXXX), the token (v4.public.…) or an address holding it.")
        var input: String?

        @Option(help: "A PNG or JPEG photo of the QR code.")
        var image: String?

        @Option(help: "A name for this device, as your device list will show it (default: this computer's name).")
        var name: String?

        @Flag(help: "Join even if this computer already has a profile (its key is forgotten).")
        var force = false

        func validate() throws {
            guard (input == nil) != (image == nil) else { throw ValidationError("give the code, the link or --image FILE (one of them)") }
        }

        func run() async throws {
            try await reportingErrors {
                let session = try Session(options: options, credentials: force ? .replaceable : .optional)
                try session.refuseToReplace(force: force)
                let text = try image.map(Self.linkInImage) ?? input ?? ""
                let redemption =
                    text.contains("v4.public.")
                    ? DeviceLinkRedemption(
                        token: text.trimmingCharacters(in: .whitespacesAndNewlines), deviceName: name ?? Session.deviceName)
                    : DeviceLinkRedemption(code: text, deviceName: name ?? Session.deviceName)
                let registered = try await session.client.redeemDeviceLink(redemption)
                try await session.save(registered, options: options)
            }
        }

        /// The link in a photo of a QR code.
        private static func linkInImage(_ path: String) throws(CommandFailure) -> String {
            guard let link = try QRImage.texts(inFile: path).first(where: { $0.contains("v4.public.") }) else {
                throw .data("\(path): the QR code does not hold a device link")
            }
            return link
        }
    }

    struct List: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "List the devices that use your profile.")

        @OptionGroup var options: GlobalOptions

        func run(in session: Session) async throws {
            let devices = try await session.client.devices()
            if options.json { return try Terminal.printJSON(devices) }
            for device in devices {
                let used = device.lastUsedAt.map { "last used \($0.formatted(date: .abbreviated, time: .shortened))" } ?? "not used yet"
                Terminal.print(
                    """
                    \(device.current ? "*" : " ") \(device.name ?? "(unnamed)")  \(device.id.uuidString.lowercased())
                        added \(device.createdAt.formatted(date: .abbreviated, time: .shortened)), \(used)
                    """)
            }
            Terminal.note("* this device. Revoke one with `constellation device revoke ID`.")
        }
    }

    struct Rename: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "Rename one of your devices.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The device's id (from `constellation device list`).")
        var id: UUID

        @Argument(help: "Its new name.")
        var name: String

        func run(in session: Session) async throws {
            let device = try await session.client.renameDevice(id, to: name)
            if options.json { return try Terminal.printJSON(device) }
            Terminal.print("Renamed to \(device.name ?? name).")
        }
    }

    struct Revoke: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke one of your devices: its key stops working at once.",
            discussion: "Your last device goes only with --last: without a device, only a recovery code gets your profile back.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The device's id (from `constellation device list`).")
        var id: UUID

        @Flag(help: "Revoke it even if it is your profile's last device.")
        var last = false

        func run(in session: Session) async throws {
            let isThisComputer = try await session.client.devices().contains { $0.id == id && $0.current }
            do {
                try await session.client.revokeDevice(id, evenTheLast: last)
            } catch {
                // Not `catch .problem(let p) where …`: with the code after it, Swift 6.3 crashes on that pattern.
                guard case ClientError.problem(let problem)? = error as? ClientError, problem.known == .lastDevice else { throw error }
                throw CommandFailure.data(
                    "that is your profile's last device; add --last if you mean it (only a recovery code gets you back)")
            }
            guard isThisComputer else { return Terminal.print("Revoked: that device's key no longer works.") }
            // This computer's own key is dead now: forget it, so that the next command says so plainly.
            try? FileManager.default.removeItem(at: session.store.credentialsFile)
            Terminal.print(
                "Revoked this computer's key; it is forgotten here too. `constellation device join` or `me recover` to come back.")
        }
    }
}
