// A constellation drawn on a canvas from the layout JSON the server sends (`/v1/me/network`,
// `/v1/events/{id}/network`): nodes with x, y, degree and community; edges by node id.
// Zoom (wheel, pinch, buttons), pan (drag), hover or tap to see a node. Positions can glide
// from one layout to the next instead of jumping, and edges can be added one at a time (live).
// Built for 10,000 people and 100,000 links; the work is in the graph-*.js files it imports.

import { GraphData } from './graph-data.js';
import { ViewTransform, fillingTurn, scaleUnder } from './graph-transform.js';
import { GraphPainter } from './graph-draw.js';
import { listen, nodeAt } from './graph-input.js';

export { communityColor } from './graph-data.js';

/** How long the newest connection stays highlighted, in milliseconds. */
const NEWEST_MS = 4000;

export class GraphView {
  /**
   * @param canvas the <canvas> to draw on (sized by CSS; the view follows its size)
   * @param options.onSelect called with the node under the pointer (or null) and its screen position
   * @param options.padding the margin, in CSS pixels, that a fit keeps free around the graph
   * @param options.overlays elements laid over the canvas (a title, a count, a QR code): the
   *   picture keeps clear of them
   * @param options.magnify how much larger labels, nodes and edges are drawn (a projector's wall: 1.6)
   */
  constructor(canvas, { onSelect = () => {}, padding = 20, overlays = [], magnify = 1 } = {}) {
    this.canvas = canvas;
    this.overlays = overlays;
    this.graph = new GraphData();
    this.transform = new ViewTransform(padding);
    this.painter = new GraphPainter(canvas, magnify);
    this.pending = false;
    new ResizeObserver(() => this.resize()).observe(canvas);
    // An overlay that appears, goes or changes size (a banner, a longer count) moves the free area: a frame follows.
    const moved = new ResizeObserver(() => this.request());
    for (const overlay of overlays) if (overlay) moved.observe(overlay);
    listen(canvas, {
      zoom: (factor, at) => this.zoom(factor, at),
      pan: (dx, dy) => { this.transform.following = false; this.transform.pan(dx, dy); this.request(); },
      select: (x, y) => onSelect(nodeAt(this.graph, x, y), x, y),
    });
  }

  /**
   * Shows `graph` ({nodes, edges}); nodes already shown glide to their new places over `glideMs`,
   * or longer where they move far.
   * The first picture of three people or more is turned so that it fills this screen best, and
   * every later one keeps that turn (the server's picture is one for every screen); once the
   * picture has doubled since, and another turn would fill a fifth more, it glides to that one.
   */
  setGraph(graph, { glideMs = 0 } = {}) {
    this.chooseTurn(graph);
    this.graph.set(graph, glideMs);
    const { glide } = this.graph; const { width, height, scale } = this.transform;
    // Nobody glides over 3.5% of the shorter side in 50 ms (the ease peaks at 1.5 times its mean).
    if (glide && width) glide.duration = Math.max(glideMs, Math.min(6000, (2143 * this.graph.longestMove() * scale) / Math.min(width, height)));
    this.transform.linkLength = this.graph.linkLength() || null;
    if (!this.transform.fitted || (!glideMs && this.transform.following)) this.fit();
    this.request();
  }

  chooseTurn(graph) {
    const count = graph.nodes.length;
    const turned = this.turnedAt;
    if (count < 3 || (turned && count < 2 * turned)) return;
    const xs = graph.nodes.map((node) => node.x); const ys = graph.nodes.map((node) => node.y);
    // A picture that comes before the canvas has been sized is turned for the window's shape.
    const area = this.transform.width ? this.transform.area() : { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    const width = area.right - area.left; const height = area.bottom - area.top;
    const turn = fillingTurn(xs, ys, count, width, height);
    this.turnedAt = count;
    if (turned && scaleUnder(turn, xs, ys, count, width, height) < 1.2 * scaleUnder(this.graph.turn, xs, ys, count, width, height)) return;
    this.graph.turn = turn;
  }

  /**
   * Adds one edge at once (e.g. a connection just made); an end not shown yet is added next to
   * the other end (or at the centre). `source` and `target` are nodes ({id, label, …}).
   * Returns false if the edge was shown already.
   */
  addEdge(source, target) {
    if (!this.graph.addEdge(source, target, this.transform)) return false;
    const { index } = this.graph;
    this.graph.newest = { a: index.get(source.id), b: index.get(target.id), until: performance.now() + NEWEST_MS };
    setTimeout(() => this.request(), NEWEST_MS + 20);
    this.request();
    return true;
  }

  /** Fits the whole graph in the free part of the canvas, and keeps it fitted as it grows and moves. */
  fit() {
    this.findRegion();
    if (this.transform.fit(this.graph.boundsAt(1))) this.request();
  }

  /** Zooms by `factor` around a screen point (the centre by default); the view stops following the picture. */
  zoom(factor, at = null) {
    this.transform.following = false;
    this.transform.zoom(factor, at);
    this.request();
  }

  /**
   * The largest rectangle of the canvas clear of the overlays (for the picture as it is now): each
   * overlay over the canvas leaves the parts above, below, left and right of it; of every way to
   * combine those, the one where the picture is drawn largest.
   */
  findRegion() {
    // Nothing over the canvas (the home page, the organizer's laptop view): all of it, with no layout read per frame.
    if (!this.overlays.length) {
      this.transform.region = null;
      return;
    }
    const canvas = this.canvas.getBoundingClientRect();
    let regions = [{ left: 0, top: 0, right: canvas.width, bottom: canvas.height }];
    for (const overlay of this.overlays) {
      const r = overlay.getBoundingClientRect();
      if (!r.width || !r.height || overlay.hidden) continue;
      const o = { left: r.left - canvas.left, top: r.top - canvas.top, right: r.right - canvas.left, bottom: r.bottom - canvas.top };
      regions = regions.flatMap((free) => {
        if (o.right <= free.left || o.left >= free.right || o.bottom <= free.top || o.top >= free.bottom) return [free];
        return [
          { ...free, right: Math.min(free.right, o.left) }, { ...free, left: Math.max(free.left, o.right) },
          { ...free, bottom: Math.min(free.bottom, o.top) }, { ...free, top: Math.max(free.top, o.bottom) },
        ].filter((part) => part.right - part.left > 40 && part.bottom - part.top > 40);
      });
    }
    const box = this.graph.boundsAt(1);
    const transform = this.transform;
    let best = null; let bestScale = -1;
    for (const region of regions) {
      transform.region = region;
      const { scale } = box ? transform.fitting(box) : { scale: (region.right - region.left) * (region.bottom - region.top) };
      if (scale > bestScale) { best = region; bestScale = scale; }
    }
    transform.region = best;
  }

  /** Rings the node with this id (or none), e.g. a search result; with `center`, brings it to the middle. */
  focus(id, { center = false } = {}) {
    const graph = this.graph;
    const i = id == null ? undefined : graph.index.get(id);
    graph.highlight = i === undefined ? null : graph.nodes[i];
    if (graph.highlight && center) {
      this.transform.following = false;
      this.transform.centerOn(graph.toX[i], graph.toY[i]);
    }
    this.request();
    return graph.highlight;
  }

  /** Follows the canvas's CSS size (the ResizeObserver calls this). */
  resize() {
    const { clientWidth, clientHeight } = this.canvas;
    this.transform.width = clientWidth;
    this.transform.height = clientHeight;
    this.painter.resize(clientWidth, clientHeight);
    if (!this.transform.fitted) this.fit();  // later sizes: followed frame by frame
    this.request();
  }

  /** Asks for a frame (one per animation frame, however often asked). */
  request() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  /**
   * Draws one frame (see `GraphPainter.draw`), the view first stepping towards the fit of where the
   * frame draws the nodes while it follows the picture; then asks for the next if one should follow.
   */
  async draw() {
    const now = performance.now();
    let moving = false;
    if (this.transform.following && this.transform.fitted) {
      this.findRegion();
      moving = this.transform.follow(this.graph.boundsAt(this.graph.progress(now)));
    }
    if ((await this.painter.draw(this.graph, this.transform, now)) || moving) this.request();
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
  /** The free rectangle the picture keeps to, and the labels the last frame drew ({x, y, width, height}). */
  get region() { return this.transform.area(); }
  get labels() { return this.painter.labels; }
}
