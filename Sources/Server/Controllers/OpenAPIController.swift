import ConstellationModel
import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 document of this API (`Sources/Server/OpenAPI`, shipped in
/// the server's resource bundle like the web client), public, revalidated with its ETag
/// (`no-cache`, 304). `Tools/contract` runs Schemathesis against the server with it.
struct OpenAPIController {
    let documents: WebAssets

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("openapi.json") { request, _ in try document(request) }
    }

    private func document(_ request: Request) throws -> Response {
        guard let document = documents["openapi.json"] else {
            throw Problem(
                .openapiMissing,
                detail: documents.loadError ?? "openapi.json is not in the server's resource bundle")
        }
        return document.response(to: request, headers: [.xContentTypeOptions: "nosniff"])
    }
}
