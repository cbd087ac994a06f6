import Logging

/// The embedded cluster's application role: Constellation connects as a role that owns its
/// database and everything in it, and is no superuser, so nothing it runs (a restore included)
/// can read or write the server's files or start programs. The bootstrap superuser only sets the
/// cluster up.
enum ApplicationRole {
    /// Makes sure, as the bootstrap superuser at `administrativeConnectionString` (database
    /// `postgres`), that the application role exists, that the `constellation` database exists and
    /// is its, and that every object in that database's `public` schema is its: a cluster made
    /// before the role existed (its bootstrap superuser owned everything) is moved over once.
    static func ensure(administrativeConnectionString admin: String, logger: Logger) throws(PostgresError) {
        let role = EmbeddedPostgres.applicationRole
        let database = EmbeddedPostgres.databaseName
        let cluster = try PostgresConnection(conninfo: admin)
        if try cluster.query("SELECT 1 FROM pg_roles WHERE rolname = \(role)").isEmpty {
            try cluster.execute(unsafeSQL: "CREATE ROLE \(role) LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS")
        }
        let owner = try cluster.query("SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = \(database)").first?
            .string("owner")
        switch owner {
        case nil:
            try cluster.execute(unsafeSQL: "CREATE DATABASE \(database) OWNER \(role)")
        case role?:
            break
        default:
            logger.notice(
                "moving the embedded database to its own role, once",
                metadata: ["db.role": "\(role)", "db.previous_owner": "\(owner ?? "")"])
            // The objects first: until the database is the role's, a start that stopped halfway moves what is left.
            let inside = try PostgresConnection(conninfo: admin.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(database)"))
            try inside.execute(unsafeSQL: Self.moveObjects(to: role))  // one statement: all or nothing
            try cluster.execute(unsafeSQL: "ALTER DATABASE \(database) OWNER TO \(role)")
        }
    }

    /// Gives `role` every table, view, sequence and routine in `public`: tables first (their
    /// indexes, and the sequences of their serial and identity columns, go with them), then
    /// what is left.
    static func moveObjects(to role: String) -> String {
        """
        DO $$
        DECLARE item record;
        BEGIN
            FOR item IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relowner <> '\(role)'::regrole
                        ORDER BY c.relkind = 'r' DESC
            LOOP
                EXECUTE format('ALTER %s %s OWNER TO \(role)',
                               CASE item.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                                                 WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, item.name);
            END LOOP;
            FOR item IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE n.nspname = 'public' AND c.relkind = 'S' AND c.relowner <> '\(role)'::regrole
            LOOP
                EXECUTE format('ALTER SEQUENCE %s OWNER TO \(role)', item.name);
            END LOOP;
            FOR item IN SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                        WHERE n.nspname = 'public' AND p.proowner <> '\(role)'::regrole
            LOOP
                EXECUTE format('ALTER ROUTINE %s OWNER TO \(role)', item.name);
            END LOOP;
        END $$
        """
    }
}
