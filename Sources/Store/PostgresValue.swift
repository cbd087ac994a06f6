import Foundation

/// A value bound as a statement parameter, in PostgreSQL's text format, with the type it is
/// cast to in the statement. Values are always bound, never spliced into SQL.
package protocol PostgresBindable: Sendable {
    /// The PostgreSQL type of the parameter (`text`, `uuid`, …): `\(value)` becomes `$n::type`.
    static var postgresType: String { get }
    /// The value in PostgreSQL's text input format.
    var postgresText: String { get }
}

extension String: PostgresBindable {
    package static var postgresType: String { "text" }
    package var postgresText: String { self }
}

extension Int: PostgresBindable {
    package static var postgresType: String { "bigint" }
    package var postgresText: String { String(self) }
}

extension Int64: PostgresBindable {
    package static var postgresType: String { "bigint" }
    package var postgresText: String { String(self) }
}

extension Bool: PostgresBindable {
    package static var postgresType: String { "boolean" }
    package var postgresText: String { self ? "t" : "f" }
}

extension Double: PostgresBindable {
    package static var postgresType: String { "double precision" }
    /// The shortest text that reads back as the same value, as PostgreSQL prints it too.
    package var postgresText: String { "\(self)" }
}

extension UUID: PostgresBindable {
    package static var postgresType: String { "uuid" }
    package var postgresText: String { uuidString.lowercased() }
}

/// A `uuid[]` parameter (`= ANY(\(ids))`).
extension Array: PostgresBindable where Element == UUID {
    package static var postgresType: String { "uuid[]" }
    package var postgresText: String { "{" + map(\.postgresText).joined(separator: ",") + "}" }
}

/// An array parameter of any bindable type, with NULLs (`unnest(\(PostgresArray(names)))`):
/// each element quoted, so text holding commas, quotes or braces stays one element.
package struct PostgresArray<Element: PostgresBindable>: PostgresBindable {
    package let elements: [Element?]
    package init(_ elements: [Element?]) { self.elements = elements }
    package static var postgresType: String { Element.postgresType + "[]" }
    package var postgresText: String {
        var text = "{"
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            guard let element else {
                text += "NULL"
                continue
            }
            text += "\""
            let value = element.postgresText
            if value.utf8.contains(where: Self.needsEscape) {
                text += String(decoding: value.utf8.flatMap { Self.needsEscape($0) ? [0x5C, $0] : [$0] }, as: UTF8.self)
            } else {
                text += value
            }
            text += "\""
        }
        return text + "}"
    }

    /// `"` and `\`, which a quoted array element escapes with `\`.
    private static func needsEscape(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x5C }
}

extension Date: PostgresBindable {
    package static var postgresType: String { "timestamptz" }
    package var postgresText: String { PostgresTimestamp.format(self) }
}

/// Bytes for a `bytea` parameter (hex format).
package struct ByteString: PostgresBindable, Equatable {
    package let bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package static var postgresType: String { "bytea" }
    package var postgresText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = Array("\\x".utf8)
        text.reserveCapacity(2 + 2 * bytes.count)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
