import ArgumentParser
import Foundation
import Keys
import Server
import Store

/// A failure told in one line on stderr, with a `sysexits.h` exit code scripts can test, as the
/// `constellation` CLI does.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    /// Bad input data, such as a malformed line in a file (EX_DATAERR).
    static func data(_ message: String) -> CommandFailure { CommandFailure(description: message, exitCode: 65) }
    /// An input file that does not exist or cannot be read (EX_NOINPUT).
    static func noInput(_ message: String) -> CommandFailure { CommandFailure(description: message, exitCode: 66) }
    /// PostgreSQL cannot be reached or started (EX_UNAVAILABLE).
    static func unavailable(_ message: String) -> CommandFailure { CommandFailure(description: message, exitCode: 69) }
    /// An internal error (EX_SOFTWARE).
    static func software(_ message: String) -> CommandFailure { CommandFailure(description: message, exitCode: 70) }
    /// Something else holds what the command needs, such as a running server its embedded
    /// PostgreSQL: try again once it has stopped (EX_TEMPFAIL).
    static func busy(_ message: String) -> CommandFailure { CommandFailure(description: message, exitCode: 75) }
    /// What was asked exists already, such as an event with the slug (EX_CANTCREAT).
    static func cannotCreate(_ message: String) -> CommandFailure { CommandFailure(description: message, exitCode: 73) }
    /// The setup is incomplete, such as no migrations folder (EX_CONFIG).
    static func configuration(_ message: String) -> CommandFailure { CommandFailure(description: message, exitCode: 78) }

    /// `body`'s value; a key that cannot be loaded is told as `reporting` tells it, ending the command with its code.
    static func reportingKeyErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SigningKeyError {
            throw report(error.failure)
        }
    }

    /// Runs `body`, printing any failure as `constellation-server: …` on stderr and exiting with its
    /// code; usage errors are left to ArgumentParser (64), anything unforeseen is 70.
    static func reporting(_ body: () async throws -> Void) async throws {
        let failure: CommandFailure
        do {
            return try await body()
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error  // told already (`reportingKeyErrors`)
        } catch let error as CommandFailure {
            failure = error
        } catch let error as PostgresError where error.kind == .alreadyRunning {
            failure = .busy(error.message)
        } catch let error as PostgresError where [.connectionFailed, .embeddedServer].contains(error.kind) {
            failure = .unavailable(error.description)
        } catch let error as PostgresError where error.sqlState == Migrator.rowsBreakRules {
            failure = .data("a migration refuses rows of this database: \(error.message)")
        } catch let error as SetupError {
            failure = .configuration(error.description)
        } catch let error as SigningKeyError {
            failure = error.failure
        } catch let error as RestoreError {
            failure = error.failure
        } catch let error as ConfigurationError {
            failure = .configuration(error.description)
        } catch {
            failure = .software("internal error: \(error)")
        }
        throw report(failure)
    }

    /// Prints `failure` as one line on stderr; the exit code to end the command with.
    private static func report(_ failure: CommandFailure) -> ExitCode {
        // One line, even when a message (libpq's, say) spans several.
        let line = failure.description.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
        FileHandle.standardError.write(Data("constellation-server: \(line)\n".utf8))
        return ExitCode(failure.exitCode)
    }
}

extension SigningKeyError {
    /// A missing key file is missing input (66); one that cannot be used or written is the setup's fault (78).
    var failure: CommandFailure {
        switch self {
        case .missing: .noInput(description)
        case .cannotCreate: CommandFailure(description: description, exitCode: 73)
        case .tooOpen, .malformed: .configuration(description)
        }
    }
}

extension RestoreError {
    /// A dump that is not Constellation's is bad data (65); a database in use is not to be written
    /// over (73); a superuser's connection is the setup's to change (78); a restore that does not
    /// count what it loaded is a fault (70).
    var failure: CommandFailure {
        switch self {
        case .foreign, .otherPostgreSQL, .breaksRules: .data(description)
        case .notEmpty: .cannotCreate(description)
        case .superuser: .configuration(description)
        case .checkFailed: .software(description)
        }
    }
}
