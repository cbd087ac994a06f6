import ConstellationModel
import Hummingbird
import NIOCore

/// The web client, served from memory with a strict Content-Security-Policy: nothing may load
/// from, or be sent to, another origin. `/` (join, my code, my network), `/c` (what a phone's
/// camera opens: `/c#TOKEN`), `/events/{slug}/live` (the organizer's live constellation), the
/// organizer's back office (`/events/new`, `/events/{slug}/organize` and its join poster
/// `/events/{slug}/poster`), an invitation to organize (`/invitation#code=…`) and their `/assets/…` (the catalogs of words under `/assets/locales/LANG/`), and `/sw.js`, the service worker that keeps them
/// for offline use. Pages and assets revalidate (`no-cache` + ETag → 304).
struct WebController {
    let assets: WebAssets

    /// Only this origin (scripts, workers, styles, requests), no inline script or style, no plugins, no framing, no `<base>`.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob: data:",
        "connect-src 'self'", "worker-src 'self'", "manifest-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/") { request, _ in try page("index.html", request) }
        router.get("c") { request, _ in try page("connect.html", request) }
        router.get("sw.js") { request, _ in try page("sw.js", request) }
        router.get("events/:slug/live") { request, _ in try page("live.html", request) }
        router.get("events/new") { request, _ in try page("new-event.html", request) }
        router.get("events/:slug/organize") { request, _ in try page("organize.html", request) }
        router.get("events/:slug/poster") { request, _ in try page("poster.html", request) }
        router.get("invitation") { request, _ in try page("invitation.html", request) }
        router.get("assets/:name") { request, context in
            let name = try context.parameters.require("name")
            return try page("assets/\(name)", request)
        }
        router.get("assets/locales/:language/:catalog") { request, context in
            let (language, catalog) = (try context.parameters.require("language"), try context.parameters.require("catalog"))
            return try page("assets/locales/\(language)/\(catalog)", request)
        }
    }

    private func page(_ path: String, _ request: Request) throws -> Response {
        if let loadError = assets.loadError {
            throw Problem(.webClientMissing, detail: loadError)
        }
        guard let asset = assets[path] else { throw Problem(.notFound, detail: "No such page") }
        return asset.response(
            to: request,
            headers: [
                .contentSecurityPolicy: Self.contentSecurityPolicy, .xContentTypeOptions: "nosniff",
                .init("Referrer-Policy")!: "no-referrer", .init("Cross-Origin-Opener-Policy")!: "same-origin",
            ])
    }
}
