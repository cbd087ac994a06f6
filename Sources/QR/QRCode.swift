internal import CQREncode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A QR symbol: a square of dark and light modules, without its quiet zone.
public struct QRCode: Sendable, Equatable {
    /// The QR version (1…40).
    public let version: Int
    /// Modules per side.
    public let size: Int
    /// Row-major, `true` for dark.
    public let modules: [Bool]

    /// The quiet zone that every rendering puts around the symbol, in modules (the standard's minimum).
    public static let quietZone = 4

    public init(version: Int, size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR code is square")
        self.version = version
        self.size = size
        self.modules = modules
    }

    /// Encodes `text` in byte mode at error-correction level M with libqrencode, choosing the smallest version.
    public init(encoding text: String) throws(QRError) {
        let symbol: UnsafeMutablePointer<QRcode>? = text.withCString { QRcode_encodeString8bit($0, 0, QR_ECLEVEL_M) }
        guard let symbol else {
            let code = errno
            throw code == ERANGE ? .tooLong(bytes: text.utf8.count) : .encodingFailed(errno: code)
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        self.init(version: Int(symbol.pointee.version), size: width, modules: data.map { $0 & 1 == 1 })
    }

    /// Whether the module at (`x`, `y`) is dark; coordinates outside the symbol (the quiet zone) are light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Modules per side including the quiet zone on both sides.
    public var sizeWithQuietZone: Int { size + 2 * Self.quietZone }
}
