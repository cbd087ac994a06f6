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

    @Option(
        help:
            "Seconds to wait for each answer before a scan is saved offline or the command gives up (default: $CONSTELLATION_TIMEOUT, else 10)."
    )
    var timeout: Double?

    @Flag(help: "Print machine-readable JSON.")
    var json = false
}
