/// Why a backup could not be written or an archive cannot be restored; each says it in one line.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    /// The file is not a Constellation backup at all.
    case foreign(String)
    /// The archive ends before its end: a copy cut short.
    case truncated(String)
    /// A file in the archive is not what the manifest says it is.
    case altered(String)
    /// The backup holds a schema this binary does not know.
    case newerSchema(String)
    /// Reading or writing a file failed.
    case io(String)

    public var description: String {
        switch self {
        case .foreign(let detail): "not a Constellation backup: \(detail)"
        case .truncated(let detail): "the backup is truncated: \(detail)"
        case .altered(let detail): "the backup was altered or damaged: \(detail)"
        case .newerSchema(let detail): "the backup is newer than this constellation-server: \(detail)"
        case .io(let detail): detail
        }
    }
}
