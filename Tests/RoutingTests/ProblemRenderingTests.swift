import ConstellationModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Server
import Store
import Testing

/// Errors render themselves: a domain error as its problem, anything else as a 500 that shows
/// nothing but the request's id.
@Suite struct ProblemRenderingTests {
    private struct Undescribed: Error {
        let secret = "SELECT * FROM profiles -- nobody should see this"
    }

    @Test func anErrorNobodyDescribedIsA500WithTheRequestIdAndNothingElse() async throws {
        let router = Router()
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: ProblemMiddleware())
        router.get("boom") { _, _ -> Response in throw Undescribed() }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/boom", method: .get)
            #expect(response.status == .internalServerError)
            let problem = try #require(response.problem)
            #expect(problem.code == "internal_error")
            #expect(problem.detail == nil)
            let id = try #require(response.headers[.init("X-Request-ID")!])
            #expect(problem.requestId == id)
            let text = String(buffer: response.body)
            #expect(!text.contains("SELECT") && !text.contains("Undescribed"), "\(text)")
        }
    }

    /// Every refusal of the store is a client error with a code the API's description lists.
    @Test(arguments: StoreError.allCases)
    func aStoreRefusalIsA4xxTheOpenAPIDocumentNames(error: StoreError) async throws {
        let router = Router()
        router.add(middleware: ProblemMiddleware())
        router.get("refuse") { _, _ -> Response in throw error }
        let documented = try String(contentsOf: Self.openAPIDocument, encoding: .utf8)
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/refuse", method: .get)
            let problem = try #require(response.problem)
            #expect((400..<500).contains(problem.status), "\(error) → \(problem.status)")
            #expect(Int(response.status.code) == problem.status)
            #expect(documented.contains("`\(problem.code)`"), "\(error): \(problem.code) is not in openapi.json")
        }
    }

    static let openAPIDocument = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Server/OpenAPI/openapi.json")
}
