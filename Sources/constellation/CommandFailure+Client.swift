import ArgumentParser
import Client
import ConstellationModel
import Foundation

extension CommandFailure {
    /// The CLI's view of a client error: the server's own words, with an exit code by kind.
    init(_ error: ClientError) {
        switch error {
        case _ where error.isTemporary: self = .unavailable(error.description)
        case .unreachable: self = .unavailable(error.description)
        case .problem(let problem) where problem.status == 401 && problem.code.hasSuffix("credentials"):
            self = .credentials("\(error.description); run `constellation register` again")
        case .problem(let problem) where problem.status < 500: self = .data(error.description)
        case .problem, .unexpectedResponse: self = .software(error.description)
        }
    }
}

/// Runs a command body, printing any failure as `constellation: …` on stderr with its exit code;
/// an error no one anticipated is an internal error (70), never a bare 1.
func reportingErrors(_ body: () async throws -> Void) async throws {
    let failure: CommandFailure
    do {
        return try await body()
    } catch let error as CommandFailure {
        failure = error
    } catch let error as ClientError {
        failure = CommandFailure(error)
    } catch let error as ValidationError {
        throw error  // a usage error, which ArgumentParser says with the usage (64)
    } catch {
        failure = .software("internal error: \(error)")
    }
    Terminal.note(failure.line(of: "constellation"))
    throw ExitCode(failure.exitCode)
}
