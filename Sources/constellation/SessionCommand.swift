import ArgumentParser

/// A command that acts as the registered user: it opens a session, sends the offline queue
/// first, then runs; errors reach the terminal as a message and an exit code.
protocol SessionCommand: AsyncParsableCommand {
    var options: GlobalOptions { get }

    /// The command's work, once the session is open and caught up.
    func run(in session: Session) async throws
}

extension SessionCommand {
    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options)
            try await session.catchUp()
            try await run(in: session)
        }
    }
}
