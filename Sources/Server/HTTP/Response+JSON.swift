import ConstellationModel
import Foundation
import Hummingbird

extension Response {
    /// A JSON response encoded the way every client decodes it.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        json(bytes: try JSONEncoder.constellation.encode(value), status: status)
    }

    /// JSON already written (by the encoder, or by hand as `JSONBytes` writes it).
    static func json(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Bytes of a given media type that must not be cached (a fresh token each time).
    static func fresh(_ bytes: some Sequence<UInt8>, contentType: String) -> Response {
        fresh(ByteBuffer(bytes: bytes), contentType: contentType)
    }

    /// As `fresh(_:contentType:)`, for bytes already in a buffer: a shared one is sent without a copy.
    static func fresh(_ buffer: ByteBuffer, contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store"], body: .init(byteBuffer: buffer))
    }
}
