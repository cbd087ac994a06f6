import Foundation
import TestSupport
import Testing

/// The web client's pure modules, which need a page but no data, in one real headless Chromium on
/// one server (its database empty): each check imports its module from the page's own assets.
@Suite(.tier(.browser)) struct WebModuleTests {
    let workspace = Workspace()

    /// The committed vector file, found from this file's place in the repository.
    static let vectorsFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Browser
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("TokensTests/Vectors/paseto/v4.json")

    struct VectorFile: Decodable {
        struct Vector: Decodable {
            let name: String
            let expectFail: Bool
            let token: String
            let payload: String?
            let footer: String
            enum CodingKeys: String, CodingKey {
                case name, token, payload, footer
                case expectFail = "expect-fail"
            }
        }
        let tests: [Vector]
    }

    /// One browser session for every module: PASETO, then stable communities, then a clean page.
    @Test func theWebClientsPureModulesInOneSession() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        try await Browser.with { browser in
            try await browser.open(server.url + "/")
            try await Self.pasetoVerifiesEveryPublicVectorAndRefusesEveryFailingOne(in: browser)
            try await Self.aCommunityKeepsItsColourWhenThePictureRenumbersIt(in: browser)
            try await browser.expectCleanPage(origin: server.url)
        }
    }

    /// The PASETO verifier (`assets/paseto.js`, WebCrypto Ed25519) against the official PASETO v4
    /// vectors committed for the Swift implementation (`Tests/TokensTests/Vectors/paseto`): what
    /// the attendee's phone checks before it sends a code. Every v4.public vector (`4-S-*`)
    /// verifies to its payload and footer, over its implicit assertion; every vector that must fail
    /// (`4-F-*`: local tokens, a public token checked with a local key, another version,
    /// non-canonical encodings) is refused. The v4.local vectors (`4-E-*`) are for encryption,
    /// which the web client never does.
    private static func pasetoVerifiesEveryPublicVectorAndRefusesEveryFailingOne(in browser: Browser) async throws {
        let text = try String(contentsOf: Self.vectorsFile, encoding: .utf8)
        let vectors = try JSONDecoder().decode(VectorFile.self, from: Data(text.utf8)).tests
            .filter { $0.token.hasPrefix("v4.public.") || $0.expectFail }
        // 4-S-1…3 to verify, 4-F-1…5 to refuse: a filter or file that yields fewer checks nothing.
        #expect(vectors.count == 8, "v4.public and must-fail vectors in \(Self.vectorsFile.path): \(vectors.map(\.name))")
        let result = try #require(try await browser.runAsync(Self.checkVectors, [text]) as? [String: Any])
        #expect(result["error"] == nil, "\(result["error"] ?? "")")
        let checked = try #require(result["checked"] as? [[String: Any]])
        #expect(checked.compactMap { $0["name"] as? String } == vectors.map(\.name), "the vectors the page checked")
        for vector in vectors {
            let outcome = checked.first { $0["name"] as? String == vector.name } ?? [:]
            if vector.expectFail {
                #expect(outcome["refused"] as? String != nil, "\(vector.name) must be refused, got \(outcome)")
            } else {
                #expect(outcome["refused"] == nil, "\(vector.name) refused: \(outcome["refused"] ?? "")")
                #expect(outcome["payload"] as? String == vector.payload, "\(vector.name): payload \(outcome)")
                #expect(outcome["footer"] as? String == vector.footer, "\(vector.name): footer \(outcome)")
            }
        }
    }

    /// The live page keeps community colours as an event grows (`assets/stable-communities.js`), on
    /// pictures whose communities the server numbered afresh.
    private static func aCommunityKeepsItsColourWhenThePictureRenumbersIt(in browser: Browser) async throws {
        let result = try #require(try await browser.runAsync(Self.renumber) as? [String: Any])
        #expect(result["error"] == nil, "\(result)")
        // The same groups, numbered 0, 1, 2, then 2, 0, 1 by the server: shown as they were.
        #expect(result["second"] as? [Int] == [0, 0, 0, 1, 1, 2, 2])
        // Two join the biggest group and a new group of three appears: old numbers stay, the new one takes 3.
        #expect(result["third"] as? [Int] == [0, 0, 0, 1, 1, 2, 2, 0, 0, 3, 3, 3])
        // The first group splits in two: the bigger part keeps its number, the other takes the lowest free one (4).
        #expect(result["fourth"] as? [Int] == [0, 0, 0, 1, 1, 2, 2, 0, 0, 3, 3, 3].enumerated().map { $0.offset < 2 ? 4 : $0.element })
    }

    /// Checks, with `verifyPublic` from the page's own paseto.js, each vector of the file given as
    /// text that is v4.public or must fail; the key is the vector's public key (its local key for the
    /// must-fail ones that have none). Answers each one's payload and footer, or why it was refused.
    private static let checkVectors = """
        const [vectors, done] = arguments;
        import('/assets/paseto.js').then(async ({ verifyPublic }) => {
          const bytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
          const text = (data) => new TextDecoder().decode(data);
          const checked = [];
          for (const vector of JSON.parse(vectors).tests) {
            if (!vector.token.startsWith('v4.public.') && !vector['expect-fail']) continue;
            try {
              const key = bytes(vector['public-key'] || vector.key);
              const { message, footer } = await verifyPublic(vector.token, key, vector['implicit-assertion']);
              checked.push({ name: vector.name, payload: text(message), footer: text(footer) });
            } catch (error) {
              checked.push({ name: vector.name, refused: `${error.code || error.name}: ${error.message}` });
            }
          }
          done({ checked });
        }).catch((error) => done({ error: String(error) }));
        """

    /// Four pictures of the same people as the server might number their communities.
    private static let renumber = """
        const [done] = arguments;
        import('/assets/stable-communities.js').then(({ StableCommunities }) => {
          const people = (communities) => communities.map((community, i) => ({ id: `p${i}`, community }));
          const stable = new StableCommunities();
          const numbers = (nodes) => nodes.map((node) => node.community);
          stable.relabel(people([0, 0, 0, 1, 1, 2, 2]));
          const second = numbers(stable.relabel(people([2, 2, 2, 0, 0, 1, 1])));
          const third = numbers(stable.relabel(people([5, 5, 5, 3, 3, 4, 4, 5, 5, 9, 9, 9])));
          const fourth = numbers(stable.relabel(people([7, 7, 1, 6, 6, 2, 2, 1, 1, 8, 8, 8])));
          done({ second, third, fourth });
        }).catch((error) => done({ error: String(error) }));
        """
}
