import ArgumentParser
import ConstellationModel

/// `constellation ready`: a health check for a container runtime or an orchestrator.
struct Ready: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say whether the server is ready to serve (its /ready): exit 0 if it is, 69 if not.",
        discussion: """
            Needs no profile. For a container's health check (`podman run --health-cmd "constellation ready"`, \
            Docker's HEALTHCHECK) or an orchestrator's probe; the server is $CONSTELLATION_SERVER or --server.
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options, credentials: .optional)
            let (isReady, said) = try await session.client.ready()
            guard isReady else { throw CommandFailure.unavailable("the server is not ready: \(said)") }
            Terminal.print(options.json ? said : "ready")
        }
    }
}
