import Foundation
import NIOCore

/// The web client's files (`Sources/Server/Web`, shipped as the server's resource bundle), read
/// once at start and served from memory: each with its media type and a strong ETag.
struct WebAssets: Sendable {
    struct Asset: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        /// A hash of the bytes, quoted, so a browser revalidates with `If-None-Match` and gets a 304.
        let etag: String
    }

    /// Keyed by path under `Web/`, e.g. `index.html`, `assets/api.js`.
    private let assets: [String: Asset]
    /// Why the files could not be read, if they could not (the pages then answer 503 saying so).
    let loadError: String?

    init(assets: [String: Asset], loadError: String? = nil) {
        self.assets = assets
        self.loadError = loadError
    }

    subscript(path: String) -> Asset? { assets[path] }

    /// Every file's path, for tests and the size budget.
    var paths: [String] { assets.keys.sorted() }

    static let mediaTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8",
    ]

    /// The files of the `Web` folder in the server's resource bundle, read once per process.
    static let bundled: WebAssets = {
        do {
            guard let root = Bundle.module.url(forResource: "Web", withExtension: nil) else {
                throw WebAssetsError.missing(Bundle.module.bundlePath)
            }
            return try load(from: root)
        } catch {
            return WebAssets(assets: [:], loadError: "\(error)")
        }
    }()

    /// Every file under `root` whose extension has a known media type (others are not served).
    static func load(from root: URL) throws -> WebAssets {
        let rootPath = root.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: rootPath) else { throw WebAssetsError.missing(rootPath) }
        var assets: [String: Asset] = [:]
        while let relative = walker.nextObject() as? String {
            let ext = (relative as NSString).pathExtension.lowercased()
            guard let contentType = mediaTypes[ext] else { continue }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rootPath).appendingPathComponent(relative)))
            assets[relative] = Asset(bytes: ByteBuffer(bytes: bytes), contentType: contentType, etag: "\"\(fnv1a(bytes))\"")
        }
        return WebAssets(assets: assets)
    }

    /// FNV-1a, 64 bits, in hex: enough to tell one version of a file from another (not a security hash).
    private static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// The web client's files cannot be found: the server was copied without its resource bundle.
enum WebAssetsError: Error, CustomStringConvertible {
    case missing(String)

    var description: String {
        "the web client's files are not at \(self.pathText): install the server with its Constellation_Server.resources folder next to the binary"
    }

    private var pathText: String {
        switch self { case .missing(let path): path }
    }
}
