import Foundation

/// A command's failure, told in one line on stderr with a `sysexits.h` exit code that scripts can
/// test: the same codes for the same kinds of failure in `constellation` and `constellation-server`.
public struct CommandFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public let exitCode: Int32

    private init(_ description: String, exitCode: Int32) {
        self.description = description
        self.exitCode = exitCode
    }

    /// Bad input data: a malformed line in a file, a token that does not verify, an image without
    /// a QR code, a request the server refused (EX_DATAERR).
    public static func data(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 65) }
    /// An input file that does not exist or cannot be read (EX_NOINPUT).
    public static func noInput(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 66) }
    /// What the command needs cannot be reached or started, or says it cannot serve now: the
    /// server, PostgreSQL (EX_UNAVAILABLE).
    public static func unavailable(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 69) }
    /// An internal error: a bug, or an answer the command does not expect (EX_SOFTWARE).
    public static func software(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 70) }
    /// What was asked exists already, or will not be made: an event with the slug, a second
    /// registration without `--force`, a key file that cannot be written (EX_CANTCREAT).
    public static func cannotCreate(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 73) }
    /// A local file could not be read or written (EX_IOERR).
    public static func io(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 74) }
    /// Something else holds what the command needs, such as a running server its embedded
    /// PostgreSQL: try again once it has stopped (EX_TEMPFAIL).
    public static func busy(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 75) }
    /// No credentials, unreadable ones, or ones the server refused (EX_NOPERM).
    public static func credentials(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 77) }
    /// The setup is incomplete or wrong, such as no migrations folder (EX_CONFIG).
    public static func configuration(_ message: String) -> CommandFailure { CommandFailure(message, exitCode: 78) }

    /// `program: description` on one line, even when a message (libpq's, say) spans several.
    public func line(of program: String) -> String {
        let words = description.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return "\(program): \(words.joined(separator: " "))"
    }
}
