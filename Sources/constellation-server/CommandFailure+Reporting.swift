import ArgumentParser
import ConstellationModel
import Foundation
import Keys
import Server
import Store

extension CommandFailure {
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
        } catch let error as PostgresError where error.kind == .clientTool || error.kind == .migration {
            // PostgreSQL's tools missing or of another major version; a migration that does not apply.
            failure = .configuration(error.description)
        } catch let error as CocoaError where error.isFileError {
            failure = .io(error.localizedDescription)
        } catch {
            failure = .software("internal error: \(error)")
        }
        throw report(failure)
    }

    /// Prints `failure` as one line on stderr; the exit code to end the command with.
    private static func report(_ failure: CommandFailure) -> ExitCode {
        FileHandle.standardError.write(Data((failure.line(of: "constellation-server") + "\n").utf8))
        return ExitCode(failure.exitCode)
    }
}

extension SigningKeyError {
    /// A missing key file is missing input (66); one that cannot be used or written is the setup's fault (78).
    var failure: CommandFailure {
        switch self {
        case .missing: .noInput(description)
        case .cannotCreate: .cannotCreate(description)
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
