import ArgumentParser
import ConstellationModel

@main
struct Constellation: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "constellation",
        abstract: "Make connections at in-person events: show your QR code, scan someone's, view your network.",
        discussion: """
            Start with `constellation register --name "Your Name"`, then `constellation show` to show your code \
            and `constellation scan TOKEN` (or `--image photo.png`) to connect with someone.
            """,
        version: Release.version,
        subcommands: [
            Register.self, Show.self, Scan.self, Sync.self, View.self, Connections.self, Disconnect.self, BlockCommand.self, Unblock.self,
            Note.self, Tag.self, Me.self, DeviceCommand.self, QRCommand.self,
            EventCommand.self, GraphCommand.self, Ready.self,
        ]
    )
}
