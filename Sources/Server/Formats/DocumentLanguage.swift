import ConstellationModel
import Hummingbird

/// The language of a document the server draws (a badge, the badge sheet, the event's report),
/// as the page that asks for it says with `?lang=en|de`: English without it.
enum DocumentLanguage: String, CaseIterable, Sendable {
    case en, de

    /// `?lang=` of `request`; 400 `unsupported_language` for another.
    init(of request: Request) throws {
        guard let code = request.uri.queryParameters.get("lang") else {
            self = .en
            return
        }
        guard let language = Self(rawValue: String(code)) else {
            throw Problem.badRequest("unsupported_language", "lang must be en or de")
        }
        self = language
    }
}
