import ConstellationModel
import Foundation
import Tokens

/// A request body small and flat enough to be read without Foundation's decoder, which costs more
/// than the rest of the request's parsing on the hot path (a scan). `init(flat:)` takes only what
/// the full decoder would take to the same value, and returns nil for everything else: unknown
/// keys, wrong types, bad dates. Those go to the full decoder, whose refusals name the field.
package protocol FlatRequestBody: Decodable {
    init?(flat object: FlatJSONObject)
}

extension RedeemRequest: FlatRequestBody {
    private static let fields: Set<String> = ["token", "scannedAt", "clientNonce"]

    package init?(flat object: FlatJSONObject) {
        guard object.keys.allSatisfy(Self.fields.contains), let token = object.string("token") else { return nil }
        var scannedAt: Date?
        if !object.isAbsentOrNull("scannedAt") {
            guard let text = object.string("scannedAt"), let date = RFC3339.date(text), RFC3339.accepted.contains(date) else { return nil }
            scannedAt = date
        }
        var clientNonce: String?
        if !object.isAbsentOrNull("clientNonce") {
            guard let nonce = object.string("clientNonce") else { return nil }
            clientNonce = nonce
        }
        self.init(token: token, scannedAt: scannedAt, clientNonce: clientNonce)
    }
}
