import Foundation
import Testing
import TestSupport

/// `constellation view` of a crowd with long names: the text fits the terminal.
@Suite struct ViewTests {
    let workspace = Workspace()

    static let names = [
        "Alexandrina Featherstonehaugh-Montgomery", "Bartholomew Quintilian Abernathy-Smythe", "Cordelia Wolfeschlegelsteinhausen",
        "山田花子 of the Kyoto Calligraphy Guild", "Dmitri Konstantinovich Rachmaninov-Ivanov", "Evangeline Marguerite Delacroix-Beaumont",
        "Fitzgerald Oppenheimer the Third of Kent", "Guinevere Pendragon-Llewellyn ap Gruffydd",
    ]

    /// Ada, connected with everyone in `names`, the first four of whom are also connected in a chain.
    func crowd(_ server: ServerProcess) throws -> URL {
        let ada = try workspace.home("ada")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        let token = try workspace.token(home: ada, server: server.url)
        let homes = try Self.names.enumerated().map { number, name in
            let home = try workspace.home("person\(number)")
            _ = try workspace.register(name, home: home, server: server.url)
            #expect(try Binaries.cli(["scan", token], home: home, server: server.url).status == 0)
            return home
        }
        for (home, next) in zip(homes.prefix(4), homes.dropFirst().prefix(3)) {
            #expect(try Binaries.cli(["scan", workspace.token(home: home, server: server.url)], home: next, server: server.url).status == 0)
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
}
