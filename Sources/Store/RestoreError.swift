/// Why an archive's database cannot be restored; each says it in one line.
public enum RestoreError: Error, Equatable, CustomStringConvertible {
    /// The dump holds something a dump of Constellation's own schema does not: an object, a
    /// definition, a statement. Nothing of it was run.
    case foreign(String)
    /// The dump was made from another major version of PostgreSQL than the one here.
    case otherPostgreSQL(dumped: String, here: String)
    /// The target database holds tables already.
    case notEmpty
    /// The target role is a superuser, and the restore was not told that is meant.
    case superuser(role: String)
    /// The restored database is not what the dump holds.
    case checkFailed(String)
    /// Rows of the dump break rules the server keeps on what it stores: which rows (by key) and
    /// which rules, never their data. Nothing was written.
    case breaksRules(String)

    public var description: String {
        switch self {
        case .foreign(let detail):
            "the backup's database is not Constellation's: \(detail); nothing of it was run"
        case .otherPostgreSQL(let dumped, let here):
            "the backup's database was dumped from PostgreSQL \(dumped), and this restore checks it against PostgreSQL \(here): "
                + "restore it where PostgreSQL \(dumped) runs, then back up again from a server on \(here)"
        case .notEmpty:
            "the database holds tables already: restore into an empty one (createdb)"
        case .superuser(let role):
            "the database role \(role) is a superuser: restore as the role that owns the database "
                + "(the one the server connects as), or pass --allow-superuser"
        case .breaksRules(let detail):
            "the backup holds rows that break rules this release keeps on what it stores: \(detail); nothing was restored"
        case .checkFailed(let detail):
            "the restored database is not what the backup holds: \(detail); what was restored has been removed"
        }
    }
}
