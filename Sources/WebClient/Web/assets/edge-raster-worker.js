// The other core's share of a large graph's edges (see `EdgeRasterWorker` in edge-raster.js):
// each message brings the pixel positions, the range of edges to draw, the counts' buffer to fill
// (lent, and sent back) and, when they changed, the edges; the answer is the filled buffer and the
// milliseconds it took.
import { rasterizeEdges } from './edge-raster.js';

let edges = new Int32Array(0);

self.onmessage = ({ data }) => {
  const started = performance.now();
  if (data.edges) edges = data.edges;
  const hits = new Uint8Array(data.hits);
  hits.fill(0);
  rasterizeEdges(hits, data.width, data.height, data.px, data.py, edges, data.first, data.last);
  self.postMessage({ hits: data.hits, ms: performance.now() - started }, [data.hits]);
};
