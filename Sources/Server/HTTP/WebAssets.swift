import Foundation
import Hummingbird
import NIOCore
import WebClient

/// Files shipped in the server's resource bundle, read once at start and served from memory, each
/// with its media type and a strong ETag: the web client (the `WebClient` module's `Web` folder) and
/// the API's OpenAPI document (`Sources/Server/OpenAPI`).
package struct WebAssets: Sendable {
    package struct Asset: Sendable {
        package let bytes: ByteBuffer
        let contentType: String
        /// A hash of the bytes, quoted, so a browser revalidates with `If-None-Match` and gets a 304.
        let etag: String
    }

    /// A file as read, before the server writes into it (`written`).
    typealias File = (bytes: [UInt8], contentType: String)

    /// Keyed by path under the folder, e.g. `index.html`, `assets/api.js`.
    private let assets: [String: Asset]
    /// Why the files could not be read, if they could not (requests for them then answer 503 saying so).
    let loadError: String?

    init(assets: [String: Asset], loadError: String? = nil) {
        self.assets = assets
        self.loadError = loadError
    }

    package subscript(path: String) -> Asset? { assets[path] }

    /// Every file's path, for tests and the size budget.
    package var paths: [String] { assets.keys.sorted() }

    static let mediaTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8", "json": "application/json",
    ]

    /// The web client, read once per process.
    package static let bundled = inFolder(WebClient.folder, named: "Web", bundlePath: WebClient.bundlePath)
    /// The API's description: the `OpenAPI` folder of the server's resource bundle (`openapi.json`).
    static let openAPI = inFolder(
        Bundle.module.url(forResource: "OpenAPI", withExtension: nil), named: "OpenAPI",
        bundlePath: Bundle.module.bundlePath)

    /// The files of a resource bundle's folder, or none and why.
    private static func inFolder(_ root: URL?, named folder: String, bundlePath: String) -> WebAssets {
        do {
            guard let root else { throw WebAssetsError.missing(folder, bundlePath) }
            return try load(from: root)
        } catch {
            return WebAssets(assets: [:], loadError: "\(error)")
        }
    }

    /// Every file under `root` whose extension has a known media type (others are not served).
    static func load(from root: URL) throws -> WebAssets {
        let rootPath = root.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: rootPath) else {
            throw WebAssetsError.missing(root.lastPathComponent, rootPath)
        }
        var files: [String: File] = [:]
        while let relative = walker.nextObject() as? String {
            let ext = (relative as NSString).pathExtension.lowercased()
            guard let contentType = mediaTypes[ext] else { continue }
            files[relative] = (try [UInt8](Data(contentsOf: URL(fileURLWithPath: rootPath).appendingPathComponent(relative))), contentType)
        }
        files = written(files)
        return WebAssets(
            assets: files.mapValues { Asset(bytes: ByteBuffer(bytes: $0.bytes), contentType: $0.contentType, etag: EntityTag.of($0.bytes)) }
        )
    }
}

extension WebAssets.Asset {
    /// 200 with the bytes, or 304 without them when `If-None-Match` names this ETag; revalidated
    /// every time (`no-cache`), with `headers` added.
    func response(to request: Request, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-cache", .eTag: etag]
        headers.append(contentsOf: extra)
        if let match = request.headers[.ifNoneMatch], EntityTag.list(match, names: etag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}

/// A folder of the resource bundle cannot be found: the server was copied without its bundle.
enum WebAssetsError: Error, CustomStringConvertible {
    /// The folder, and where it was looked for.
    case missing(String, String)

    var description: String {
        switch self {
        case .missing(let folder, let path):
            "the server's \(folder) files are not at \(path): install the server with its resource bundles (Constellation_*.resources) next to the binary"
        }
    }
}
