import Foundation
import TestSupport
import Testing

/// `constellation view` of a crowd with long names: the text fits the terminal, the SVG's labels fit the picture.
@Suite(.tier(.endToEnd)) struct ViewTests {
    let workspace = Workspace()

    static let names = [
        "Alexandrina Featherstonehaugh-Montgomery", "Bartholomew Quintilian Abernathy-Smythe", "Cordelia Wolfeschlegelsteinhausen",
        "山田花子 of the Kyoto Calligraphy Guild", "Dmitri Konstantinovich Rachmaninov-Ivanov", "Evangeline Marguerite Delacroix-Beaumont",
        "Fitzgerald Oppenheimer the Third of Kent", "Guinevere Pendragon-Llewellyn ap Gruffydd",
    ]

    /// Ada, connected with everyone in `names`, the first four of whom are also connected in a chain.
    func crowd(_ server: ServerProcess, names: [String] = names) throws -> URL {
        let ada = try workspace.home("ada")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        let token = try workspace.token(home: ada, server: server.url)
        let homes = try names.enumerated().map { number, name in
            let home = try workspace.home("person\(number)")
            _ = try workspace.register(name, home: home, server: server.url)
            #expect(try Binaries.cli(["scan", token], home: home, server: server.url).status == 0)
            return home
        }
        for (home, next) in zip(homes.prefix(4), homes.dropFirst().prefix(3)) {
            #expect(
                try Binaries.cli(["scan", workspace.token(home: home, server: server.url)], home: next, server: server.url).status == 0)
        }
        return ada
    }

    /// Terminal columns as the C library counts them (`wcwidth` in a UTF-8 locale), independently of the CLI's own count.
    /// Swift's Glibc module does not export `wcwidth`, so it is looked up by name.
    static func columns(_ line: Substring) throws -> Int {
        setlocale(LC_CTYPE, "C.UTF-8")
        let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "wcwidth"))
        let wcwidth = unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
        return line.unicodeScalars.reduce(0) { $0 + max(0, Int(wcwidth(Int32(bitPattern: $1.value)))) }
    }

    @Test func textFitsTheTerminalWidth() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let ada = try crowd(server)
        let narrow = try Binaries.cli(["view"], home: ada, server: server.url, environment: ["COLUMNS": "40"])
        #expect(narrow.status == 0, "\(narrow.stderr)")
        let lines = narrow.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("@ you") } && lines.contains { $0.hasPrefix("4 山田") })
        for line in lines { #expect(try Self.columns(line) <= 40, "too wide for 40 columns: \(line)") }
        // The drawing scales with the terminal rather than always being narrow.
        let wide = try Binaries.cli(["view"], home: ada, server: server.url, environment: ["COLUMNS": "80"])
        let wideColumns = try wide.stdout.split(separator: "\n").map(Self.columns)
        #expect(wideColumns.allSatisfy { $0 <= 80 } && wideColumns.contains { $0 > 60 }, "\(wideColumns)")
    }

    /// A label's box as the SVG states it: from `x` for `textLength`, from the ascent above the baseline `y` to the descent below.
    struct Box {
        let text: String
        let minX, minY, maxX, maxY: Double

        func overlaps(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }
    }

    @Test func svgLabelsNeitherOverlapNorLeaveThePicture() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let names = Self.names + (1...16).map { "Participant number \($0) with a long surname" }
        let ada = try crowd(server, names: names)
        let file = ada.appendingPathComponent("network.svg")
        let output = try Binaries.cli(["view", "--svg", file.path], home: ada, server: server.url)
        #expect(output.status == 0, "\(output.stderr)")
        let svg = try String(contentsOf: file, encoding: .utf8)

        let viewBox = try #require(svg.firstMatch(of: /viewBox="(-?[0-9.]+) (-?[0-9.]+) ([0-9.]+) ([0-9.]+)"/))
        let (left, top) = (Double(viewBox.1)!, Double(viewBox.2)!)
        let (right, bottom) = (left + Double(viewBox.3)!, top + Double(viewBox.4)!)
        let font = try #require(svg.firstMatch(of: /font-size="([0-9.]+)"/))
        let fontSize = try #require(Double(font.1))
        let labels = svg.matches(of: /<text x="(-?[0-9.]+)" y="(-?[0-9.]+)" textLength="([0-9.]+)">([^<]*)<\/text>/).map {
            let (x, y, width) = (Double($0.1)!, Double($0.2)!, Double($0.3)!)
            return Box(text: String($0.4), minX: x, minY: y - 0.9 * fontSize, maxX: x + width, maxY: y + 0.25 * fontSize)
        }
        let circles = svg.matches(of: /<circle cx="(-?[0-9.]+)" cy="(-?[0-9.]+)" r="([0-9.]+)"[^>]*><title>([^<]*)<\/title>/)
        let dots = circles.map {
            let (x, y, radius) = (Double($0.1)!, Double($0.2)!, Double($0.3)!)
            return Box(text: String($0.4), minX: x - radius, minY: y - radius, maxX: x + radius, maxY: y + radius)
        }
        // The crowd is dense enough that whole names written right of their dots (as `view --svg` used to) would collide.
        let naive = try dots.map { dot in
            let width = Double(try Self.columns(Substring(dot.text))) * 0.62 * fontSize
            let baseline = (dot.minY + dot.maxY) / 2 + 4
            return Box(
                text: dot.text, minX: dot.maxX + 3, minY: baseline - 0.9 * fontSize, maxX: dot.maxX + 3 + width,
                maxY: baseline + 0.25 * fontSize)
        }
        #expect(naive.enumerated().contains { index, box in naive[(index + 1)...].contains(where: box.overlaps) })

        #expect(dots.count == names.count + 1)
        #expect(labels.contains { $0.text == "Ada" } && labels.count > names.count / 2, "\(labels.map(\.text))")
        for label in labels {
            let shortened = label.text.hasSuffix("…") ? String(label.text.dropLast()) : nil
            #expect((names + ["Ada"]).contains { $0 == label.text || shortened.map($0.hasPrefix) == true }, "\(label.text)")
            #expect(
                label.minX >= left && label.maxX <= right && label.minY >= top && label.maxY <= bottom, "\(label.text) leaves the picture")
            let coversADot = dots.contains(where: label.overlaps)
            #expect(!coversADot, "\(label.text) covers a dot")
        }
        for (index, label) in labels.enumerated() {
            for other in labels[(index + 1)...] {
                #expect(!label.overlaps(other), "\(label.text) overlaps \(other.text)")
            }
        }
    }
}
