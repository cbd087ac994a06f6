import Foundation
import TestSupport
import Testing

/// The live page keeps community colours as an event grows (`assets/stable-communities.js`), run
/// in a real headless Chromium on pictures whose communities the server numbered afresh.
@Suite struct StableCommunitiesTests {
    let workspace = Workspace()

    @Test func aCommunityKeepsItsColourWhenThePictureRenumbersIt() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        try await Browser.with { browser in
            try await browser.open(server.url + "/")
            let result = try #require(try await browser.runAsync(Self.renumber) as? [String: Any])
            #expect(result["error"] == nil, "\(result)")
            // The same groups, numbered 0, 1, 2, then 2, 0, 1 by the server: shown as they were.
            #expect(result["second"] as? [Int] == [0, 0, 0, 1, 1, 2, 2])
            // Two join the biggest group and a new group of three appears: old numbers stay, the new one takes 3.
            #expect(result["third"] as? [Int] == [0, 0, 0, 1, 1, 2, 2, 0, 0, 3, 3, 3])
            // The first group splits in two: the bigger part keeps its number, the other takes the lowest free one (4).
            #expect(result["fourth"] as? [Int] == [0, 0, 0, 1, 1, 2, 2, 0, 0, 3, 3, 3].enumerated().map { $0.offset < 2 ? 4 : $0.element })
        }
    }

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
