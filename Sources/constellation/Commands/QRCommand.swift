import ArgumentParser
import ConstellationModel
import Foundation

struct QRCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr", abstract: "Manage your QR codes.", subcommands: [Reset.self])

    struct Reset: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke every code you have shown so far.",
            discussion:
                "Codes (and tokens) shown before the reset can no longer be scanned; `constellation show` gives a fresh one that works.")

        @OptionGroup var options: GlobalOptions

        func run(in session: Session) async throws {
            let reset = try await session.client.resetTokens()
            if options.json { return try Terminal.printJSON(reset) }
            Terminal.print("Every code you have shown so far is revoked. Run `constellation show` for a fresh one.")
        }
    }
}
