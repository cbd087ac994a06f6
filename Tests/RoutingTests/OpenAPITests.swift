import Foundation
import Hummingbird
import HummingbirdTesting
import Server
import Testing

/// The OpenAPI document served at `/openapi.json` and the router cannot drift apart: every route
/// is documented and every documented operation is routed (`HEAD` and `OPTIONS`, which every
/// path answers, are described once in the document's conventions). Read through the router alone,
/// with no database. Live responses are checked against the document by Schemathesis
/// (`Tools/contract`, run by `Tools/test`).
@Suite struct OpenAPITests {
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    @Test func theDocumentListsExactlyTheRoutesTheRouterHas() async throws {
        try await RouterHarness.runWithServices { client, services in
            let document = try await Self.document(client)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let documented = Set(
                paths.flatMap { path, item in
                    item.keys.filter(Self.methods.contains).map { "\($0.uppercased()) \(path)" }
                })
            let routed = Set(buildRouter(services).routes.map { "\($0.method.rawValue) \($0.path.description)" })
            #expect(routed.subtracting(documented).sorted() == [], "routes that openapi.json does not describe")
            #expect(documented.subtracting(routed).sorted() == [], "operations in openapi.json that no route serves")
            #expect(routed.contains("GET /openapi.json") && routed.contains("PATCH /v1/me/devices/{device}"))
        }
    }

    /// OpenAPI 3.1, every operation named once, every `$ref` pointing at a component that exists.
    @Test func theDocumentIsOpenAPI31AndHoldsTogether() async throws {
        try await RouterHarness.run { client in
            let document = try await Self.document(client)
            #expect((document["openapi"] as? String)?.hasPrefix("3.1.") == true)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let operationIds = paths.values.flatMap { item in
                item.filter { Self.methods.contains($0.key) }.compactMap { ($0.value as? [String: Any])?["operationId"] as? String }
            }
            #expect(operationIds.count == paths.values.map { $0.keys.filter(Self.methods.contains).count }.reduce(0, +))
            #expect(Set(operationIds).count == operationIds.count, "operationIds repeat")
            let components = try #require(document["components"] as? [String: [String: Any]])
            let unresolved = Self.references(in: document).filter { reference in
                let parts = reference.split(separator: "/").map(String.init)
                return !(parts.count == 4 && parts[0] == "#" && parts[1] == "components" && components[parts[2]]?[parts[3]] != nil)
            }
            #expect(unresolved.sorted() == [], "$refs to nothing")
        }
    }

    /// Served like the web client's files: `no-cache` with an ETag, 304 when it is named.
    @Test func theDocumentRevalidatesWithItsETag() async throws {
        try await RouterHarness.run { client in
            let first = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "application/json")
            #expect(first.headers[.cacheControl] == "no-cache")
            let etag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: "/openapi.json", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
        }
    }

    static func document(_ client: any TestClientProtocol) async throws -> [String: Any] {
        let response = try await client.execute(uri: "/openapi.json", method: .get)
        try #require(response.status == .ok)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// Every `$ref` value anywhere in `value`.
    static func references(in value: Any) -> [String] {
        switch value {
        case let object as [String: Any]:
            [object["$ref"] as? String].compactMap { $0 } + object.values.flatMap(references(in:))
        case let array as [Any]:
            array.flatMap(references(in:))
        default:
            []
        }
    }
}
