import ArgumentParser
import Foundation

/// Options every command that talks to the server shares.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The server's URL (default: $CONSTELLATION_SERVER, else the server you registered with, else http://127.0.0.1:8080).")
    var server: String?

    @Option(
        name: .customLong("ca-file"),
        help: "A PEM file of certificate authorities to trust for an https server, besides the system's (default: $CONSTELLATION_CA_FILE).",
        completion: .file())
    var caFile: String?

    @Flag(help: "Print machine-readable JSON.")
    var json = false
}
