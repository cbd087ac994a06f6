import ArgumentParser
import Client
import Foundation

/// A failure the user is told about in one line, with a `sysexits.h` exit code scripts can test.
/// Every code the CLI uses is named here, and `docs/cli-and-web.md` lists them all.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    /// Bad input data: a token that does not verify, an image without a QR code (EX_DATAERR).
    static func data(_ message: String) -> CLIError { CLIError(description: message, exitCode: 65) }
    /// An input file that does not exist or cannot be opened (EX_NOINPUT).
    static func noInput(_ message: String) -> CLIError { CLIError(description: message, exitCode: 66) }
    /// The server cannot be reached, or says it cannot serve now (EX_UNAVAILABLE).
    static func unavailable(_ message: String) -> CLIError { CLIError(description: message, exitCode: 69) }
    /// An internal error: a bug here, or a server answering what this CLI does not expect (EX_SOFTWARE).
    static func software(_ message: String) -> CLIError { CLIError(description: message, exitCode: 70) }
    /// The CLI will not create what was asked, such as a second registration without `--force` (EX_CANTCREAT).
    static func cannotCreate(_ message: String) -> CLIError { CLIError(description: message, exitCode: 73) }
    /// A local file could not be read or written (EX_IOERR).
    static func io(_ message: String) -> CLIError { CLIError(description: message, exitCode: 74) }
    /// No credentials, unreadable ones, or ones the server refused (EX_NOPERM).
    static func credentials(_ message: String) -> CLIError { CLIError(description: message, exitCode: 77) }

    /// The CLI's view of a client error: the server's own words, with an exit code by kind.
    init(_ error: ClientError) {
        switch error {
        case .unreachable: self = .unavailable(error.description)
        case .problem(let problem) where problem.status == 401 && problem.code.hasSuffix("credentials"):
            self = .credentials("\(error.description); run `constellation register` again")
        case .problem(let problem) where problem.status == 503: self = .unavailable(error.description)
        case .problem(let problem) where problem.status < 500: self = .data(error.description)
        case .problem, .unexpectedResponse: self = .software(error.description)
        }
    }

    private init(description: String, exitCode: Int32) {
        self.description = description
        self.exitCode = exitCode
    }
}

/// Runs a command body, printing any failure as `constellation: …` on stderr with its exit code;
/// an error no one anticipated is an internal error (70), never a bare 1.
func reportingErrors(_ body: () async throws -> Void) async throws {
    let failure: CLIError
    do {
        return try await body()
    } catch let error as CLIError {
        failure = error
    } catch let error as ClientError {
        failure = CLIError(error)
    } catch {
        failure = .software("internal error: \(error)")
    }
    Terminal.error(failure.description)
    throw ExitCode(failure.exitCode)
}
