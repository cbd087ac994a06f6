import Foundation
import QR
import Testing

@Suite struct QREncodingTests {
    /// About the size of a real connection token.
    static let tokenSized =
        "v4.public." + String(repeating: "eyJzdWIiOiI0YTllN2MxZS0wZDdhLTRhNTctOWQ1NS05ZjBlOGMxYjJhM2Qi", count: 5).prefix(300)

    @Test func versionAndSizeFollowTheLength() throws {
        let small = try QRCode(encoding: "hello")
        #expect(small.version == 1)
        #expect(small.size == 21)
        let large = try QRCode(encoding: String(Self.tokenSized))
        #expect(large.size == 17 + 4 * large.version)
        #expect(large.version > small.version)
    }

    @Test func tokenSizedCodeFitsAnEightyColumnTerminal() throws {
        let code = try QRCode(encoding: String(Self.tokenSized))
        let lines = code.terminalText().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.count == code.sizeWithQuietZone })
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.count == (code.sizeWithQuietZone + 1) / 2)
    }

    @Test func terminalTextShowsTheModules() throws {
        let code = try QRCode(encoding: "x")
        let light = code.terminalText()
        let dark = code.terminalText(darkOnLight: true)
        // The quiet zone is light: a full block row on dark backgrounds, blank on light ones.
        #expect(light.hasPrefix(String(repeating: "█", count: code.sizeWithQuietZone)))
        #expect(dark.hasPrefix(String(repeating: " ", count: code.sizeWithQuietZone)))
        #expect(light != dark)
    }

    @Test func textTooLongForAnyVersionIsRefused() {
        let text = String(repeating: "x", count: 3000)
        #expect(throws: QRError.tooLong(bytes: 3000)) { try QRCode(encoding: text) }
    }

    @Test func svgDrawsEveryDarkModuleOnce() throws {
        let code = try QRCode(encoding: "constellation")
        let svg = code.svg(scale: 4)
        #expect(svg.hasPrefix("<svg "))
        #expect(svg.contains("viewBox=\"0 0 \(code.sizeWithQuietZone) \(code.sizeWithQuietZone)\""))
        #expect(svg.contains("width=\"\(code.sizeWithQuietZone * 4)\""))
        let runs = svg.matches(of: /h(\d+)v1/).map { Int($0.output.1)! }
        #expect(runs.reduce(0, +) == code.modules.filter { $0 }.count)
    }

    @Test func bitmapHasIntegerScaleAndQuietZone() throws {
        let code = try QRCode(encoding: "abc")
        let image = code.bitmap(scale: 3)
        #expect(image.width == code.sizeWithQuietZone * 3)
        // The quiet zone is white; the top-left finder pattern's corner is black.
        #expect(image.pixels[0] == 255)
        let corner = (QRCode.quietZone * 3) * image.width + QRCode.quietZone * 3
        #expect(image.pixels[corner] == 0)
    }
}

@Suite struct QRDecodingTests {
    let token = String(QREncodingTests.tokenSized)

    @Test func pngRoundTripsThroughZbarLibrary() throws {
        let png = try QRCode(encoding: token).png()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try QRDecoder.decode(imageFile: png) == [token])
    }

    /// The PNG decodes to the exact token with Debian's `zbarimg --raw` too (an independent reader).
    @Test func pngRoundTripsThroughZbarimg() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(QRCode(encoding: token).png()).write(to: file)
        let output = try run("zbarimg", ["--quiet", "--nodbus", "--raw", file.path])
        #expect(output.trimmingCharacters(in: .newlines) == token)
    }

    /// A JPEG (lossy, as a phone would save it) made by Debian's `cjpeg` from our bitmap decodes too.
    @Test func jpegDecodes() throws {
        let image = try QRCode(encoding: token).bitmap(scale: 6)
        let directory = FileManager.default.temporaryDirectory
        let pgm = directory.appendingPathComponent("qr-\(UUID().uuidString).pgm")
        let jpeg = directory.appendingPathComponent("qr-\(UUID().uuidString).jpg")
        defer { for file in [pgm, jpeg] { try? FileManager.default.removeItem(at: file) } }
        try (Data("P5\n\(image.width) \(image.height)\n255\n".utf8) + Data(image.pixels)).write(to: pgm)
        _ = try run("cjpeg", ["-quality", "75", "-outfile", jpeg.path, pgm.path])
        let bytes = try [UInt8](Data(contentsOf: jpeg))
        #expect(JPEGDecoder.isJPEG(bytes))
        #expect(try QRDecoder.decode(imageFile: bytes) == [token])
    }

    @Test func badImagesGetDistinctErrors() throws {
        #expect(throws: QRError.unsupportedImage) { try QRDecoder.decode(imageFile: Array("GIF89a".utf8)) }
        let png = try QRCode(encoding: "x").png()
        #expect(throws: QRError.self) { try QRDecoder.decode(imageFile: Array(png.prefix(40))) }
        let blank = try PNGCodec.encode(GrayImage(width: 50, height: 50, pixels: .init(repeating: 255, count: 2500)))
        #expect(throws: QRError.noCodeFound) { try QRDecoder.decode(imageFile: blank) }
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) failed")
        return String(decoding: output, as: UTF8.self)
    }
}
