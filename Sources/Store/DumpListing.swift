/// What `pg_restore --list` says of a custom-format archive: the PostgreSQL it was dumped from
/// and its entries (table of contents), each as its type, schema and name, without the owner.
struct DumpListing {
    /// An entry of the table of contents, e.g. id 3530, `TABLE DATA public profiles`.
    struct Entry: Equatable {
        let id: Int
        let descriptor: String
    }

    /// The server's version as the archive records it, e.g. `15.18 (Debian 15.18-0+deb12u1)`.
    let serverVersion: String
    let entries: [Entry]

    /// The major version (`15`).
    var serverMajor: String { String(serverVersion.prefix { $0.isNumber }) }

    init(parsing text: String) throws(RestoreError) {
        var version: String?
        var entries: [Entry] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix(";") {
                if let range = line.range(of: "Dumped from database version: ") {
                    version = String(line[range.upperBound...])
                }
                continue
            }
            // "3530; 0 16385 TABLE DATA public profiles constellation": id; catalog oids, type, schema, name, owner.
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 4, fields[0].hasSuffix(";"), let id = Int(fields[0].dropLast()) else {
                throw .foreign("its table of contents holds a line pg_restore does not write: \(line.prefix(80))")
            }
            entries.append(Entry(id: id, descriptor: fields[3..<(fields.count - 1)].joined(separator: " ")))
        }
        guard let version else { throw .foreign("its table of contents does not say which PostgreSQL it was dumped from") }
        serverVersion = version
        self.entries = entries
    }

    /// The entries' descriptors, sorted: two archives of the same schema list the same.
    var descriptors: [String] { entries.map(\.descriptor).sorted() }

    /// The id of the entry `descriptor` names.
    func id(of descriptor: String) -> Int? {
        entries.first { $0.descriptor == descriptor }?.id
    }
}
