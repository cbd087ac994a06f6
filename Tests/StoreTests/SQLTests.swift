import Foundation
import Store
import Testing

/// How statements are put together: values become numbered, typed placeholders; text needs `unsafeSQL`.
@Suite struct SQLTests {
    @Test func valuesBecomeNumberedTypedPlaceholders() {
        let id = UUID(uuidString: "0A8E5D5C-2A1B-4C4B-9F3E-7D1E2F3A4B5C")!
        let headline: String? = nil
        let sql: SQL = "UPDATE t SET a = \("x'y"), b = \(headline), c = \(42), d = \(true) WHERE id = \(id)"
        #expect(sql.rendered.text == "UPDATE t SET a = $1::text, b = $2::text, c = $3::bigint, d = $4::boolean WHERE id = $5::uuid")
        #expect(sql.rendered.values == ["x'y", nil, "42", "t", "0a8e5d5c-2a1b-4c4b-9f3e-7d1e2f3a4b5c"])
    }

    @Test func anEmbeddedStatementKeepsItsValuesBoundAndNumberedInOrder() {
        let condition: SQL = "b = \(Int64(2)) AND c = \(ByteString([0xDE, 0xAD]))"
        let sql: SQL = "SELECT \(1) WHERE \(condition) AND d = \(Date(timeIntervalSince1970: 0))"
        #expect(sql.rendered.text == "SELECT $1::bigint WHERE b = $2::bigint AND c = $3::bytea AND d = $4::timestamptz")
        #expect(sql.rendered.values == ["1", "2", "\\xdead", "1970-01-01T00:00:00.000000Z"])
    }

    @Test func textThatLooksLikeSQLIsBoundUnlessSaidUnsafe() {
        let table = "profiles; DROP TABLE profiles"
        let bound: SQL = "SELECT count(*) FROM \(table)"
        #expect(bound.rendered.text == "SELECT count(*) FROM $1::text")
        #expect(bound.rendered.values == [table])
        let spliced: SQL = "SELECT count(*) FROM \(unsafeSQL: "profiles")"
        #expect(spliced.rendered.text == "SELECT count(*) FROM profiles")
        #expect(spliced.rendered.values.isEmpty)
        #expect(SQL(unsafe: "SELECT 1").rendered.text == "SELECT 1")
    }
}
