import Foundation
import TestSupport
import Testing

/// The web client's canvas drawing of a large graph, which the page rasterizes itself (more than
/// 20,000 edges), read back pixel by pixel in a real headless Chromium.
@Suite(.tier(.browser)) struct GraphViewTests {
    let workspace = Workspace()

    /// 210 people all connected to each other in one corner (21,945 edges: the page's own rasterizer),
    /// a lone edge along the bottom, a lone person in the top-right corner: the edge's pixels are
    /// the edge colour at one edge's opacity (the last edge: always in the share the page's worker counts), the lone person's are their community's colour, and
    /// the space between is empty.
    @Test func aLargeGraphIsRasterizedWithItsEdgesNodesAndEmptySpace() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        try await Browser.with(width: 800, height: 600) { browser in
            try await browser.open(server.url + "/")
            let result = try #require(try await browser.runAsync(Self.drawLargeGraph) as? [String: Any])
            #expect(result["error"] == nil, "\(result["error"] ?? "")")
            #expect(result["rasterized"] as? Bool == true && result["edges"] as? Int == 21_946)
            // The lone edge is the last one: in the worker's share, sent back and merged.
            #expect(result["worker"] as? Bool == true, "the edge worker did not run")
            let edge = try #require(result["edge"] as? [Int])
            let alone = try #require(result["alone"] as? [Int])
            let empty = try #require(result["empty"] as? [Int])
            // The canvas keeps colours premultiplied by opacity: at 31/255, each channel reads back within a few units.
            #expect(
                edge[3] == 31 && zip(edge, [120, 130, 150]).allSatisfy { abs($0 - $1) <= 8 },
                "one edge: its colour at opacity 0.12, got \(edge)")
            #expect(alone == [43, 138, 62, 255], "the lone person: community 2's colour, opaque, got \(alone)")
            #expect(empty[3] == 0, "nothing between them, got \(empty)")
            try await browser.expectCleanPage(origin: server.url)
        }
    }

    private static let drawLargeGraph = """
        const done = arguments[arguments.length - 1];
        import('/assets/graph-view.js').then(async ({ GraphView }) => {
          const canvas = document.createElement('canvas');
          canvas.style.cssText = 'position: fixed; left: 0; top: 0; width: 400px; height: 300px; background: transparent';
          document.body.append(canvas);
          const view = new GraphView(canvas);
          const nodes = [], edges = [];
          for (let i = 0; i < 210; i += 1) {
            nodes.push({ id: 'c' + i, x: -1 + (i % 15) * 0.004, y: -1 + Math.floor(i / 15) * 0.004, degree: 209, community: 0 });
            for (let j = 0; j < i; j += 1) edges.push({ source: 'c' + j, target: 'c' + i });
          }
          nodes.push({ id: 'left', x: -1, y: 1, degree: 1, community: 1 }, { id: 'right', x: 1, y: 1, degree: 1, community: 1 },
                     { id: 'alone', x: 1, y: -1, degree: 0, community: 2 });
          edges.push({ source: 'left', target: 'right' });
          view.setGraph({ nodes, edges });
          view.resize();
          await view.draw();
          const ratio = devicePixelRatio || 1;
          const image = view.context.getImageData(0, 0, canvas.width, canvas.height);  // one read: Chromium warns of more
          const at = (x, y) => {
            const offset = (Math.round(y * ratio) * canvas.width + Math.round(x * ratio)) * 4;
            return Array.from(image.data.slice(offset, offset + 4));
          };
          const left = view.index.get('left'), right = view.index.get('right'), alone = view.index.get('alone');
          done({
            rasterized: Boolean(view.image), edges: view.edgeCount, worker: Boolean(view.edgeWorker && !view.edgeWorker.failed),
            edge: at((view.sx[left] + view.sx[right]) / 2, view.sy[left]),
            alone: at(view.sx[alone], view.sy[alone]),
            empty: at(view.sx[alone], (view.sy[alone] + view.sy[right]) / 2),
          });
        }).catch((error) => done({ error: String(error) }));
        """
}
