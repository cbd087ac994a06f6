import Foundation
import Hummingbird

/// An entity tag (RFC 9110 §8.8.3) made from a representation's bytes: the same bytes give the same
/// tag on every instance, so a client's `If-None-Match` or `If-Match` holds wherever it lands.
enum EntityTag {
    /// `"…"`: FNV-1a over `bytes`, 64 bits in hex; enough to tell one version from another (not a security hash).
    static func of(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))\""
    }

    /// Whether an `If-Match` or `If-None-Match` header's list names `tag` (or is `*`).
    static func list(_ header: String, names tag: String) -> Bool {
        header.split(separator: ",").contains {
            let item = $0.trimmingCharacters(in: .whitespaces)
            return item == tag || item == "*"
        }
    }

    /// The tag of `value`'s JSON, as `Response.tagged` sends it.
    static func of(json value: some Encodable) throws -> String {
        of(try JSONEncoder.constellation.encode(value))
    }
}

extension Response {
    /// `value` as JSON with its ETag, for `If-Match` on a change of it.
    static func tagged(_ value: some Encodable) throws -> Response {
        let bytes = try JSONEncoder.constellation.encode(value)
        var response = Response.json(bytes: bytes)
        response.headers[.eTag] = EntityTag.of(bytes)
        return response
    }
}
