/// What the server writes into the web client's files as it loads them, so that no fact is kept by
/// hand in two files: every page's head, from `head.html`, and the service worker's list of what
/// it keeps offline, from the files themselves.
extension WebAssets {
    /// The head every page shares: `{module}` is the page's script (`<head data-module="home">`),
    /// `{scheme}` its `color-scheme` (`data-scheme`, `light dark` unless said). Not served.
    static let sharedHead = "head.html"
    static let serviceWorker = "sw.js"
    /// The line of `sw.js` that lists what it keeps for offline use.
    static let offlineList = "const ASSETS = [/* the server's files */];"

    /// `files` with the shared head written into every page and the list into the service worker.
    static func written(_ files: [String: File]) -> [String: File] {
        var written = files
        if let head = files[sharedHead] {
            written[sharedHead] = nil
            let template = String(decoding: head.bytes, as: UTF8.self)
            for (path, file) in files where path.hasSuffix(".html") && path != sharedHead {
                written[path]?.bytes = Array(withHead(template, in: String(decoding: file.bytes, as: UTF8.self)).utf8)
            }
        }
        if let worker = files[serviceWorker] {
            let list = keepingOffline(Array(written.keys), in: String(decoding: worker.bytes, as: UTF8.self))
            written[serviceWorker]?.bytes = Array(list.utf8)
        }
        return written
    }

    /// `page` with its `<head data-module="…" data-scheme="…">` opening the shared head, filled with its own.
    static func withHead(_ template: String, in page: String) -> String {
        guard let open = page.firstMatch(of: /<head data-module="([a-z-]+)"(?: data-scheme="([a-z ]+)")?>\n/) else { return page }
        let head = template.replacingOccurrences(of: "{module}", with: open.output.1)
            .replacingOccurrences(of: "{scheme}", with: open.output.2.map(String.init) ?? "light dark")
        return page.replacingCharacters(in: open.range, with: "<head>\n" + head)
    }

    /// The service worker with its list of what to keep for offline use written in: every file
    /// under `assets/` but the catalogs of the server's own documents, which no page loads.
    static func keepingOffline(_ paths: some Sequence<String>, in worker: String) -> String {
        let kept = paths.filter { $0.hasPrefix("assets/") && !$0.hasSuffix("/\(Words.catalog).json") }.sorted()
        return worker.replacingOccurrences(of: offlineList, with: "const ASSETS = [\(kept.map { "'/\($0)'" }.joined(separator: ", "))];")
    }
}
