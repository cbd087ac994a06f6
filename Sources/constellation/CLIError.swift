import ArgumentParser
import Client
import Foundation

/// A failure the user is told about in one line, with a `sysexits.h` exit code scripts can test.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    /// Bad input data: a token that does not verify, an image without a QR code (EX_DATAERR).
    static func data(_ message: String) -> CLIError { CLIError(description: message, exitCode: 65) }
    /// The server cannot be reached (EX_UNAVAILABLE).
    static func unavailable(_ message: String) -> CLIError { CLIError(description: message, exitCode: 69) }
    /// No credentials, or the server refused them (EX_NOPERM).
    static func credentials(_ message: String) -> CLIError { CLIError(description: message, exitCode: 77) }
    /// A local file could not be read or written (EX_IOERR).
    static func io(_ message: String) -> CLIError { CLIError(description: message, exitCode: 74) }

    /// The CLI's view of a client error: the server's own words, with an exit code by kind.
    init(_ error: ClientError) {
        switch error {
        case .unreachable: self = .unavailable(error.description)
        case .problem(let problem) where problem.status == 401 && problem.code.hasSuffix("credentials"):
            self = .credentials("\(error.description); run `constellation register` again")
        case .problem(let problem) where problem.status < 500: self = .data(error.description)
        default: self.init(description: error.description, exitCode: 1)
        }
    }

    init(description: String, exitCode: Int32) {
        self.description = description
        self.exitCode = exitCode
    }
}

/// Runs a command body, printing any failure as `constellation: …` on stderr with its exit code.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as CLIError {
        Terminal.error(error.description)
        throw ExitCode(error.exitCode)
    } catch let error as ClientError {
        let cliError = CLIError(error)
        Terminal.error(cliError.description)
        throw ExitCode(cliError.exitCode)
    }
}
