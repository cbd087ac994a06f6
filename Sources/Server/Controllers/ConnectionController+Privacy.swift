import ConstellationModel
import Foundation
import Hummingbird
import Tokens

extension ConnectionController {
    /// `GET /v1/me/connections?format=csv|vcard`: every connection, newest first, as a file; with
    /// `&peer=ID`, only the one with that person (a phone saving one contact).
    func exportConnections(format: String, peer: String?, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let (contentType, fileName, render): (String, String, @Sendable ([Connection]) -> String) =
            switch format {
            case "csv": ("text/csv; charset=utf-8", "connections.csv", ConnectionsCSV.document)
            case "vcard": ("text/vcard; charset=utf-8", "connections.vcf", VCard.document)
            default: throw Problem(.unsupportedFormat, detail: "format must be json, csv or vcard")
            }
        let only = try peer.map { text in
            guard let id = UUID(uuidString: text) else { throw Problem(.invalidPeer, detail: "peer must be a profile id (a UUID)") }
            return id
        }
        let connections = try await services.connections.allConnections(of: me.id, peer: only)
        var response = Response.fresh(Array(render(connections).utf8), contentType: contentType)
        response.headers[.contentDisposition] = "attachment; filename=\"\(fileName)\""
        return response
    }
}
