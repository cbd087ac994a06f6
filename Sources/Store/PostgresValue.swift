import Foundation

/// A value bound as a statement parameter, in PostgreSQL's text format.
/// Values are always bound, never spliced into SQL.
public protocol PostgresBindable: Sendable {
    var postgresText: String { get }
}

extension String: PostgresBindable { public var postgresText: String { self } }
extension Int: PostgresBindable { public var postgresText: String { String(self) } }
extension Int64: PostgresBindable { public var postgresText: String { String(self) } }
extension Bool: PostgresBindable { public var postgresText: String { self ? "t" : "f" } }
extension UUID: PostgresBindable { public var postgresText: String { uuidString.lowercased() } }
extension Date: PostgresBindable { public var postgresText: String { PostgresTimestamp.format(self) } }

/// Bytes for a `bytea` parameter (hex format).
public struct ByteString: PostgresBindable, Equatable {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var postgresText: String {
        "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
    }
}
