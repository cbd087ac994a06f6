import ConstellationModel
import Hummingbird

/// The language of a document the server draws (a badge, the badge sheet, the event's report):
/// as the page that asks for it says with `?lang=en|de`; without it, the first of the request's
/// `Accept-Language` that the server writes, by weight (a browser opening the link sends its
/// reader's languages); English otherwise.
enum DocumentLanguage: String, CaseIterable, Sendable {
    case en, de

    /// The language for `request`; 400 `unsupported_language` for a `?lang=` the server does not write.
    init(of request: Request) throws {
        guard let code = request.uri.queryParameters.get("lang") else {
            self = Self.preferred(by: request.headers[.acceptLanguage]) ?? .en
            return
        }
        guard let language = Self(rawValue: String(code)) else {
            throw Problem(.unsupportedLanguage, detail: "lang must be en or de")
        }
        self = language
    }

    /// The language of `header` (`de-DE,de;q=0.9,en;q=0.8`) that the server writes with the most
    /// weight (the first of equals); nil when it names none.
    static func preferred(by header: String?) -> DocumentLanguage? {
        guard let header, header.utf8.count <= 1_024 else { return nil }
        var best: (language: DocumentLanguage, weight: Double)?
        for range in header.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, let primary = tag.lowercased().split(separator: "-").first,
                let language = Self(rawValue: String(primary))
            else { continue }
            let weight = parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            guard weight > 0, weight <= 1, weight > (best?.weight ?? 0) else { continue }
            best = (language, weight)
        }
        return best?.language
    }
}
