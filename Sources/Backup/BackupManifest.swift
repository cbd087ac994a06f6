import Foundation

/// What a backup archive holds, written last in it: the schema the database had, and each file
/// with its size and SHA-256, so that a restore can tell a whole, unaltered archive from the rest.
public struct BackupManifest: Codable, Equatable, Sendable {
    /// What every manifest of this layout says in `format`.
    public static let currentFormat = "constellation-backup/1"

    /// A file in the archive.
    public struct File: Codable, Equatable, Sendable {
        public let name: String
        public let bytes: Int
        public let sha256: String
    }

    public let format: String
    public let createdAt: Date
    /// The migrations the database had applied, in order: its schema.
    public let migrations: [String]
    /// Whether the server's keys were given in the environment: then the archive holds none, and
    /// keeping them is the operator's business.
    public let keysFromEnvironment: Bool
    public let files: [File]
}
