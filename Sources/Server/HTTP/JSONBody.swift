import ConstellationModel
import Foundation
import Hummingbird
import NIOCore
import Tokens

/// A request's JSON body, read the one way the API accepts it: `Content-Type: application/json`
/// (415 otherwise: a `text/plain` or form POST is what a cross-site form sends without a
/// preflight), UTF-8, no key twice in an object (a proxy in front may read the other value), then
/// decoded with the API's decoder. Its refusals say which field and what was expected, never the
/// decoder's own words.
public struct JSONBody: RequestDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        return try Self.decode(type, from: body, contentType: request.headers[.contentType])
    }

    /// The body as `T`, or nil when there is none (routes whose body is optional).
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T? {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        guard body.readableBytes > 0 else { return nil }
        return try decode(type, from: body, contentType: request.headers[.contentType])
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer, contentType: String?) throws -> T {
        guard let contentType, Self.isJSON(contentType) else { throw Problem.unsupportedMediaType }
        let bytes = Array(body.readableBytesView)
        if let flat = type as? any FlatRequestBody.Type, let object = FlatJSONObject(bytes), let value = flat.init(flat: object) as? T {
            return value
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw Problem.malformedJSON("The body is not UTF-8.")
        }
        if let key = DuplicateKeys.first(in: bytes) {
            throw Problem.malformedJSON("The key \"\(key)\" appears twice in one object.")
        }
        let value: T
        do {
            value = try Self.decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw Problem.malformedJSON(Self.explanation(of: error))
        }
        if let json = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
            let unknown = UnknownFields.first(in: json, decodedAs: value)
        {
            throw Problem.malformedJSON("`\(unknown)` is not a field of this request (check its spelling); nothing was changed.")
        }
        return value
    }

    /// Dates in requests must lie in `RFC3339.accepted`.
    private static let decoder = JSONDecoder.constellation(accepting: RFC3339.accepted)

    /// `application/json`, with no parameter but `charset=utf-8`, in any case.
    static func isJSON(_ contentType: String) -> Bool {
        if contentType == "application/json" { return true }
        let parts = contentType.split(separator: ";").map { trimmed($0).lowercased() }
        guard parts.first == "application/json" else { return false }
        return parts.dropFirst().allSatisfy { $0 == "charset=utf-8" || $0 == "charset=\"utf-8\"" }
    }

    /// `part` without the spaces and tabs HTTP allows around a media type's parameters.
    private static func trimmed(_ part: Substring) -> Substring {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        guard let first = part.firstIndex(where: { !isBlank($0) }), let last = part.lastIndex(where: { !isBlank($0) }) else { return "" }
        return part[first...last]
    }

    /// What a client needs to fix: the field's path and what it must be.
    static func explanation(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            "\(field(context.codingPath)) must be \(describe(type))."
        case .valueNotFound(let type, let context):
            "\(field(context.codingPath)) must be \(describe(type)), not null."
        case .keyNotFound(let key, let context):
            "\(field(context.codingPath + [key])) is required."
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "The body is not valid JSON."
        case .dataCorrupted(let context):
            "\(field(context.codingPath)) is not one of the values it may take."
        @unknown default:
            "The body is not the JSON expected."
        }
    }

    /// `displayName`, `tags[2]`, `events[0].name`; `The body` at the top.
    static func field(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "The body" : path.fieldName
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "a value of another kind"
        }
    }
}

extension Problem {
    static let unsupportedMediaType = Problem(
        .unsupportedMediaType,
        detail: "Send it with Content-Type: application/json.")

    static func malformedJSON(_ detail: String) -> Problem {
        Problem(.malformedJson, detail: detail)
    }
}
