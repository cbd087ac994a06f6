// A constellation drawn on a canvas from the layout JSON the server sends (`/v1/me/network`,
// `/v1/events/{id}/network`): nodes with x, y, degree and community; edges by node id.
// Zoom (wheel, pinch, buttons), pan (drag), hover or tap to see a node. Positions can glide
// from one layout to the next instead of jumping, and edges can be added one at a time (live).
//
// Built for large events (10,000 people, 100,000 links). This is the view its pages use; the
// work is in graph-data.js (what is shown), graph-transform.js (where the view looks),
// graph-draw.js (the frames: edges, nodes, the edge worker), graph-labels.js (names and the
// ring) and graph-input.js (pointer and wheel).

import { GraphData } from './graph-data.js';
import { ViewTransform } from './graph-transform.js';
import { GraphPainter } from './graph-draw.js';
import { listen, nodeAt } from './graph-input.js';

export { communityColor } from './graph-data.js';

export class GraphView {
  /**
   * @param canvas the <canvas> to draw on (sized by CSS; the view follows its size)
   * @param options.onSelect called with the node under the pointer (or null) and its screen position
   * @param options.padding the margin, in CSS pixels, that `fit` keeps free around the graph
   */
  constructor(canvas, { onSelect = () => {}, padding = 20 } = {}) {
    this.canvas = canvas;
    this.graph = new GraphData();
    this.transform = new ViewTransform(padding);
    this.painter = new GraphPainter(canvas);
    this.pending = false;
    new ResizeObserver(() => this.resize()).observe(canvas);
    listen(canvas, {
      zoom: (factor, at) => this.zoom(factor, at),
      pan: (dx, dy) => { this.transform.pan(dx, dy); this.request(); },
      select: (x, y) => onSelect(nodeAt(this.graph, x, y), x, y),
    });
  }

  /** Shows `graph` ({nodes, edges}); nodes already shown glide to their new places over `glideMs`. */
  setGraph(graph, { glideMs = 0 } = {}) {
    this.graph.set(graph, glideMs);
    if (!this.transform.fitted || !glideMs) this.fit();
    this.request();
  }

  /**
   * Adds one edge at once (e.g. a connection just made); an end not shown yet is added next to
   * the other end (or at the centre). `source` and `target` are nodes ({id, label, …}).
   * Returns false if the edge was shown already.
   */
  addEdge(source, target) {
    if (!this.graph.addEdge(source, target, this.transform)) return false;
    this.request();
    return true;
  }

  /** Fits the whole graph in the canvas. */
  fit() {
    if (this.transform.fit(this.graph.toX, this.graph.toY, this.graph.nodes.length)) this.request();
  }

  /** Zooms by `factor` around a screen point (the centre by default). */
  zoom(factor, at = null) {
    this.transform.zoom(factor, at);
    this.request();
  }

  /** Rings the node with this id (or none), e.g. a search result; with `center`, brings it to the middle. */
  focus(id, { center = false } = {}) {
    const graph = this.graph;
    const i = id == null ? undefined : graph.index.get(id);
    graph.highlight = i === undefined ? null : graph.nodes[i];
    if (graph.highlight && center) this.transform.centerOn(graph.toX[i], graph.toY[i]);
    this.request();
    return graph.highlight;
  }

  /** Follows the canvas's CSS size (the ResizeObserver calls this). */
  resize() {
    const { clientWidth, clientHeight } = this.canvas;
    this.transform.width = clientWidth;
    this.transform.height = clientHeight;
    this.painter.resize(clientWidth, clientHeight);
    if (!this.transform.fitted) this.fit();
    this.request();
  }

  /** Asks for a frame (one per animation frame, however often asked). */
  request() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  /** Draws one frame (see `GraphPainter.draw`), then asks for the next if one should follow. */
  async draw() {
    if (await this.painter.draw(this.graph, this.transform)) this.request();
  }

  // The parts of a frame on their own, for Tools/bench-web to time: see GraphPainter.
  drawEdges(t, ratio) { return this.painter.drawEdges(this.graph, this.transform, t, ratio); }
  rasterizeNodes(ratio, count) { this.painter.rasterizeNodes(this.graph, ratio, count); }
  drawNodes(width, height) { this.painter.drawNodes(this.graph, width, height); }

  // What is drawn, where, and what drawing it cost: for the pages, the browser tests and Tools/bench-web.
  get nodes() { return this.graph.nodes; }
  get index() { return this.graph.index; }
  get edgeCount() { return this.graph.edgeCount; }
  get ends() { return this.graph.ends; }
  get sx() { return this.graph.sx; }
  get sy() { return this.graph.sy; }
  get offset() { return this.transform.offset; }
  get width() { return this.transform.width; }
  get height() { return this.transform.height; }
  get context() { return this.painter.context; }
  get image() { return this.painter.image; }
  get edgeWorker() { return this.painter.edgeWorker; }
  get drawing() { return this.painter.drawing; }
  get lastFrameMs() { return this.painter.lastFrameMs; }
}
