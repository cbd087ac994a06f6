// A constellation drawn on a canvas from the layout JSON the server sends (`/v1/me/network`,
// `/v1/events/{id}/network`): nodes with x, y, degree and community; edges by node id.
// Zoom (wheel, pinch, buttons), pan (drag), hover or tap to see a node. Positions can glide
// from one layout to the next instead of jumping, and edges can be added one at a time (live).
//
// Built for large events (10,000 people, 100,000 links): positions and edges live in typed
// arrays; the edges are one path, kept until positions change (panning and zooming only redraw
// it), or above 20,000 edges rasterized by the page on both cores (edge-raster.js); nodes are one
// path per colour, off-screen ones skipped; labels only for small graphs.

import { EdgeRasterWorker, rasterizeEdges } from './edge-raster.js';

const PALETTE = ['#2f6fdf', '#d9480f', '#2b8a3e', '#ae3ec9', '#e67700', '#0c8599', '#c2255c', '#5c940d', '#6741d9', '#a61e4d'];
const NO_COMMUNITY = '#868e96';
const ME = '#111111';
/** Above this many nodes, nodes are small squares (cheaper than circles) and labels are not drawn. */
const LARGE = 2000;

/** Above this many edges, the page rasterizes them itself (`rasterizeEdges`). */
const RASTERIZED_EDGES = 20000;
/** An edge's colour, and the opacity of one rasterized edge. */
const EDGE_RGB = [120, 130, 150];
const EDGE_OPACITY = 0.12;
/**
 * The pixel where `count` rasterized edges cross: opacity 1 - (1 - EDGE_OPACITY)^count, by the sum
 * of two counts of up to 255 each (the page's share and the worker's).
 */
const EDGE_SHADES = Uint32Array.from({ length: 511 }, (_, count) =>
  rgbaPixel(EDGE_RGB[0], EDGE_RGB[1], EDGE_RGB[2], Math.round(255 * (1 - (1 - EDGE_OPACITY) ** count))));

/** A pixel of an ImageData's buffer read as 32-bit words: R, G, B, A in memory order. */
function rgbaPixel(r, g, b, a) {
  return new Uint32Array(new Uint8Array([r, g, b, a]).buffer)[0];
}

/** The opaque pixel of a CSS colour (`#rrggbb` or any other form, through a one-pixel canvas). */
function pixelOf(color) {
  const swatch = new OffscreenCanvas(1, 1).getContext('2d');
  swatch.fillStyle = color;
  swatch.fillRect(0, 0, 1, 1);
  const [r, g, b] = swatch.getImageData(0, 0, 1, 1).data;
  return rgbaPixel(r, g, b, 255);
}

/** The colour of a community (the same everywhere a community is shown). */
export function communityColor(community) {
  if (community == null) return NO_COMMUNITY;
  if (community < PALETTE.length) return PALETTE[community];
  return `hsl(${Math.round((community * 137.508) % 360)} 62% 46%)`;
}

/** One number per unordered pair of node indices (below 2^26 each). */
function pairKey(i, j) {
  return i < j ? i * 67108864 + j : j * 67108864 + i;
}

/** A growable typed array (capacity doubles). */
function grow(array, needed) {
  if (needed <= array.length) return array;
  const bigger = new array.constructor(Math.max(needed, array.length * 2, 64));
  bigger.set(array);
  return bigger;
}

export class GraphView {
  /**
   * @param canvas the <canvas> to draw on (sized by CSS; the view follows its size)
   * @param options.onSelect called with the node under the pointer (or null) and its screen position
   * @param options.padding the margin, in CSS pixels, that `fit` keeps free around the graph
   */
  constructor(canvas, { onSelect = () => {}, padding = 20 } = {}) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.onSelect = onSelect;
    this.padding = padding;
    /** The nodes as given (plus what the view adds), in drawing order; `index` maps an id to its position here. */
    this.nodes = [];
    this.index = new Map();
    this.edgeCount = 0;
    this.edgeKeys = new Set();
    this.fromX = new Float64Array(0); this.fromY = new Float64Array(0);
    this.toX = new Float64Array(0); this.toY = new Float64Array(0);
    this.sx = new Float32Array(0); this.sy = new Float32Array(0);
    this.colorOf = new Uint16Array(0);
    this.ends = new Int32Array(0);
    this.edgePath = null;
    this.edgePathT = 1;
    /** Counts changes of `ends`, so the edge worker is sent edges only when they changed. */
    this.edgesVersion = 0;
    /** Counts changes of the canvas's size, which a frame in flight cannot follow. */
    this.sizeVersion = 0;
    this.edgeWorker = null;
    /** The share of the edges the worker rasterizes (`balance` adjusts it). */
    this.workerShare = 0.5;
    this.colors = [];
    this.colorIndex = new Map();
    this.scale = 1;
    this.offset = { x: 0, y: 0 };
    this.highlight = null;
    this.lastFrameMs = 0;
    this.pending = false;
    this.fitted = false;
    this.glide = null;
    this.width = 0;
    this.height = 0;
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.listen();
  }

  /** Shows `graph` ({nodes, edges}); nodes already shown glide to their new places over `glideMs`. */
  setGraph(graph, { glideMs = 0 } = {}) {
    const t = this.progress(performance.now());
    const count = graph.nodes.length;
    const fromX = new Float64Array(count); const fromY = new Float64Array(count);
    const toX = new Float64Array(count); const toY = new Float64Array(count);
    const index = new Map();
    const nodes = new Array(count);
    for (let i = 0; i < count; i += 1) {
      const node = { ...graph.nodes[i] };
      const before = this.index.get(node.id);
      toX[i] = node.x; toY[i] = node.y;
      if (before !== undefined && glideMs > 0) {
        // From where it is drawn now (mid-glide too), so a glide never jumps.
        fromX[i] = this.fromX[before] + (this.toX[before] - this.fromX[before]) * t;
        fromY[i] = this.fromY[before] + (this.toY[before] - this.fromY[before]) * t;
      } else {
        fromX[i] = node.x; fromY[i] = node.y;
      }
      nodes[i] = node;
      index.set(node.id, i);
    }
    Object.assign(this, { nodes, index, fromX, fromY, toX, toY, sx: new Float32Array(count), sy: new Float32Array(count) });
    this.colorOf = new Uint16Array(count);
    this.colors = []; this.colorIndex = new Map(); this.colorPixels = new Uint32Array(0);
    for (let i = 0; i < count; i += 1) this.colorOf[i] = this.color(nodes[i]);
    this.edgeCount = 0;
    this.edgePath = null;
    this.edgesVersion += 1;
    this.edgeKeys = new Set();
    this.ends = new Int32Array(graph.edges.length * 2);
    for (const edge of graph.edges) this.link(index.get(edge.source), index.get(edge.target));
    if (this.highlight) this.highlight = nodes[index.get(this.highlight.id)] || null;
    this.glide = glideMs > 0 ? { start: performance.now(), duration: glideMs } : null;
    if (!this.fitted || !glideMs) this.fit();
    this.request();
  }

  /**
   * Adds one edge at once (e.g. a connection just made); an end not shown yet is added next to
   * the other end (or at the centre). `source` and `target` are nodes ({id, label, …}).
   * Returns false if the edge was shown already.
   */
  addEdge(source, target) {
    const a = this.index.get(source.id); const b = this.index.get(target.id);
    if (a !== undefined && b !== undefined && this.edgeKeys.has(pairKey(a, b))) return false;
    const i = a !== undefined ? a : this.addNode(source, b);
    const j = b !== undefined ? b : this.addNode(target, i);
    this.link(i, j);
    this.nodes[i].degree = (this.nodes[i].degree || 0) + 1;
    this.nodes[j].degree = (this.nodes[j].degree || 0) + 1;
    this.request();
    return true;
  }

  /** Appends a node placed near node `near` (an index, or undefined for the picture's centre). */
  addNode(node, near) {
    const i = this.nodes.length;
    const grown = i + 1;
    for (const name of ['fromX', 'fromY', 'toX', 'toY', 'sx', 'sy', 'colorOf']) this[name] = grow(this[name], grown);
    let x; let y;
    if (near !== undefined) {
      const spread = this.typicalLength();
      const angle = Math.random() * Math.PI * 2;
      x = this.toX[near] + Math.cos(angle) * spread; y = this.toY[near] + Math.sin(angle) * spread;
    } else {
      const { width, height } = this.size();
      x = (width / 2 - this.offset.x) / this.scale + (Math.random() - 0.5) * 20 / this.scale;
      y = (height / 2 - this.offset.y) / this.scale + (Math.random() - 0.5) * 20 / this.scale;
    }
    const added = { degree: 0, community: null, ...node, x, y };
    this.nodes.push(added);
    this.index.set(added.id, i);
    this.fromX[i] = x; this.toX[i] = x; this.fromY[i] = y; this.toY[i] = y;
    this.colorOf[i] = this.color(added);
    return i;
  }

  link(i, j) {
    if (i === undefined || j === undefined || i === j) return;
    const key = pairKey(i, j);
    if (this.edgeKeys.has(key)) return;
    this.edgeKeys.add(key);
    this.ends = grow(this.ends, this.edgeCount * 2 + 2);
    this.ends[this.edgeCount * 2] = i;
    this.ends[this.edgeCount * 2 + 1] = j;
    this.edgeCount += 1;
    this.edgePath = null;
    this.edgesVersion += 1;
  }

  /** A short distance in layout units: where a new node goes next to its first neighbour. */
  typicalLength() {
    const n = Math.min(this.edgeCount, 50);
    if (!n) return 20 / this.scale;
    let sum = 0;
    for (let e = 0; e < n; e += 1) {
      const a = this.ends[e * 2]; const b = this.ends[e * 2 + 1];
      sum += Math.hypot(this.toX[a] - this.toX[b], this.toY[a] - this.toY[b]);
    }
    return (sum / n) * 0.5 || 20 / this.scale;
  }

  /** The index of a node's colour in `colors`. */
  color(node) {
    const color = node.isMe ? ME : communityColor(node.community);
    let found = this.colorIndex.get(color);
    if (found === undefined) {
      found = this.colors.length;
      this.colors.push(color);
      this.colorIndex.set(color, found);
      this.colorPixels = grow(this.colorPixels || new Uint32Array(0), found + 1);
      this.colorPixels[found] = pixelOf(color);
    }
    return found;
  }

  /** Fits the whole graph in the canvas. */
  fit() {
    const { width, height } = this.size();
    const count = this.nodes.length;
    if (!count || !width) return;
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (let i = 0; i < count; i += 1) {
      const x = this.toX[i]; const y = this.toY[i];
      if (x < minX) minX = x; if (x > maxX) maxX = x;
      if (y < minY) minY = y; if (y > maxY) maxY = y;
    }
    const spanX = Math.max(maxX - minX, 1e-9); const spanY = Math.max(maxY - minY, 1e-9);
    const margin = Math.min(this.padding, width / 4, height / 4) * 2;
    this.scale = Math.min((width - margin) / spanX, (height - margin) / spanY);
    if (!Number.isFinite(this.scale) || this.scale <= 0 || count === 1) this.scale = 1;
    this.offset = { x: width / 2 - ((minX + maxX) / 2) * this.scale, y: height / 2 - ((minY + maxY) / 2) * this.scale };
    this.fitted = true;
    this.request();
  }

  /** Zooms by `factor` around a screen point (the centre by default). */
  zoom(factor, at = null) {
    const { width, height } = this.size();
    const point = at || { x: width / 2, y: height / 2 };
    this.offset.x = point.x - (point.x - this.offset.x) * factor;
    this.offset.y = point.y - (point.y - this.offset.y) * factor;
    this.scale *= factor;
    this.request();
  }

  /** Rings the node with this id (or none), e.g. a search result; with `center`, brings it to the middle. */
  focus(id, { center = false } = {}) {
    const i = id == null ? undefined : this.index.get(id);
    this.highlight = i === undefined ? null : this.nodes[i];
    if (this.highlight && center) {
      const { width, height } = this.size();
      this.offset = { x: width / 2 - this.toX[i] * this.scale, y: height / 2 - this.toY[i] * this.scale };
    }
    this.request();
    return this.highlight;
  }

  size() {
    return { width: this.width, height: this.height };
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    this.width = this.canvas.clientWidth;
    this.height = this.canvas.clientHeight;
    const width = Math.round(this.width * ratio); const height = Math.round(this.height * ratio);
    // Setting a canvas's size clears it, even to the same size.
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
      this.sizeVersion += 1;
    }
    if (!this.fitted) this.fit();
    this.request();
  }

  request() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  /** How far the current glide has gone at `now`, 0…1 (eased); 1 without a glide. */
  progress(now) {
    if (!this.glide) return 1;
    const t = Math.min(1, (now - this.glide.start) / this.glide.duration);
    return t * t * (3 - 2 * t);
  }

  /**
   * Draws one frame; its cost in milliseconds is kept in `lastFrameMs`. Settles when the frame is
   * on the canvas: at once for small graphs; for large ones, when the edge worker has done its
   * share. A draw asked for meanwhile is made right after, with the positions of then.
   */
  async draw() {
    if (this.drawing) {
      this.drawAgain = true;
      return this.drawing;
    }
    const started = performance.now();
    const ratio = window.devicePixelRatio || 1;
    const context = this.context;
    const { width, height } = this;
    const t = this.progress(started);
    if (this.glide && t >= 1) this.glide = null;
    const count = this.nodes.length;
    const { scale, fromX, fromY, toX, toY, sx, sy } = this;
    const ox = this.offset.x; const oy = this.offset.y;
    for (let i = 0; i < count; i += 1) {
      sx[i] = (fromX[i] + (toX[i] - fromX[i]) * t) * scale + ox;
      sy[i] = (fromY[i] + (toY[i] - fromY[i]) * t) * scale + oy;
    }
    if (this.edgeCount > RASTERIZED_EDGES) {
      const size = this.sizeVersion;
      this.drawing = this.rasterizeEdges(t, ratio);
      try {
        await this.drawing;
      } finally {
        this.drawing = null;
      }
      if (size !== this.sizeVersion) {
        // The canvas changed size while the edges were drawn: this image no longer fits it.
        this.drawAgain = false;
        this.request();
        return;
      }
      // Nodes added meanwhile have no place in this frame yet: the next one (asked for) shows them.
      this.rasterizeNodes(ratio, count);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.putImageData(this.image, 0, 0);
    } else {
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, width, height);
      this.drawEdges(t, ratio);
      this.drawNodes(width, height);
    }
    if (count <= 60) {
      context.fillStyle = getComputedStyle(this.canvas).color;
      context.font = '12px system-ui, sans-serif';
      for (let i = 0; i < count; i += 1) context.fillText(this.nodes[i].label, sx[i] + 8, sy[i] + 4);
    }
    if (this.highlight) {
      const i = this.index.get(this.highlight.id);
      context.strokeStyle = '#f03e3e';
      context.lineWidth = 3;
      context.beginPath();
      context.arc(sx[i], sy[i], 12, 0, Math.PI * 2);
      context.stroke();
      if (count > 60) {
        context.fillStyle = getComputedStyle(this.canvas).color;
        context.font = '600 14px system-ui, sans-serif';
        context.fillText(this.highlight.label, sx[i] + 16, sy[i] + 5);
      }
    }
    this.lastFrameMs = performance.now() - started;
    if (this.glide || this.drawAgain) {
      this.drawAgain = false;
      this.request();
    }
  }

  /**
   * Every edge as one path in layout units, stroked under the view's transform: the path is built
   * again only when positions change (a glide, a new edge), so a pan or zoom costs one stroke call.
   * Large graphs: rasterized (see `rasterizeEdges`) and put; the promise settles when they are.
   */
  async drawEdges(t, ratio) {
    const context = this.context;
    const count = this.edgeCount;
    if (count > RASTERIZED_EDGES) {
      await this.rasterizeEdges(t, ratio);
      context.putImageData(this.image, 0, 0);
      return;
    }
    if (!this.edgePath || this.edgePathT !== t) {
      const { ends, fromX, fromY, toX, toY } = this;
      const path = new Path2D();
      for (let e = 0; e < count; e += 1) {
        const a = ends[e * 2]; const b = ends[e * 2 + 1];
        path.moveTo(fromX[a] + (toX[a] - fromX[a]) * t, fromY[a] + (toY[a] - fromY[a]) * t);
        path.lineTo(fromX[b] + (toX[b] - fromX[b]) * t, fromY[b] + (toY[b] - fromY[b]) * t);
      }
      this.edgePath = path;
      this.edgePathT = t;
    }
    context.setTransform(ratio * this.scale, 0, 0, ratio * this.scale, ratio * this.offset.x, ratio * this.offset.y);
    context.lineWidth = (count > 20000 ? 0.6 : 1) / this.scale;
    context.strokeStyle = count > 5000 ? 'rgba(120,130,150,0.16)' : 'rgba(120,130,150,0.5)';
    context.stroke(this.edgePath);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  /**
   * Large graphs: every edge rasterized into `image` as a one-pixel line (no anti-aliasing) that
   * counts its pixels, each pixel then as opaque as that many translucent strokes crossing it would
   * make it. In software (no GPU), the canvas's anti-aliased stroke of 100,000 segments costs about
   * 100 ms a frame; this, a fraction of it. A worker counts a share of the edges meanwhile
   * (`EdgeRasterWorker`); without one, the page counts them all. The caller puts the image.
   */
  async rasterizeEdges(t, ratio) {
    const { width, height } = this.canvas;
    if (!this.image || this.image.width !== width || this.image.height !== height) {
      this.image = this.context.createImageData(width, height);
      this.pixels = new Uint32Array(this.image.data.buffer);
      this.hits = new Uint8Array(width * height);
    }
    const n = this.nodes.length;
    this.px = grow(this.px || new Float32Array(0), n);
    this.py = grow(this.py || new Float32Array(0), n);
    const { px, py, fromX, fromY, toX, toY, ends, hits, edgeCount } = this;
    const k = this.scale * ratio; const ox = this.offset.x * ratio; const oy = this.offset.y * ratio;
    for (let i = 0; i < n; i += 1) {
      px[i] = (fromX[i] + (toX[i] - fromX[i]) * t) * k + ox;
      py[i] = (fromY[i] + (toY[i] - fromY[i]) * t) * k + oy;
    }
    const worker = this.startEdgeWorker();
    const split = worker ? Math.round(edgeCount * (1 - this.workerShare)) : edgeCount;
    const theirs = worker?.rasterize({
      width, height, px, py, ends, edgeCount, edgesVersion: this.edgesVersion, first: split, last: edgeCount,
    });
    const started = performance.now();
    hits.fill(0);
    rasterizeEdges(hits, width, height, px, py, ends, 0, split);
    const ownMs = performance.now() - started;
    let other = null;
    if (theirs) {
      try {
        const answer = await theirs;
        other = answer.hits;
        this.balance(ownMs, answer.ms);
      } catch {
        rasterizeEdges(hits, width, height, px, py, ends, split, edgeCount);  // the worker's share, here after all
      }
    }
    const pixels = this.pixels;
    if (other) {
      for (let i = 0; i < hits.length; i += 1) pixels[i] = EDGE_SHADES[hits[i] + other[i]];
    } else {
      for (let i = 0; i < hits.length; i += 1) pixels[i] = EDGE_SHADES[hits[i]];
    }
  }

  /**
   * Moves the worker's share of the edges half-way to where both sides would have taken as long
   * (the page also shades and puts the image, and each side's speed varies with what else runs).
   */
  balance(ownMs, workerMs) {
    const share = this.workerShare;
    if (!(ownMs > 0 && workerMs > 0)) return;
    const ownRate = (1 - share) / ownMs; const workerRate = share / workerMs;
    const even = workerRate / (ownRate + workerRate);
    this.workerShare = Math.min(0.9, Math.max(0.1, (share + even) / 2));
  }

  /** The edge worker, started on first use; null where workers cannot run or the worker failed. */
  startEdgeWorker() {
    if (this.edgeWorker === null && typeof Worker === 'function') {
      try {
        this.edgeWorker = new EdgeRasterWorker();
      } catch {
        this.edgeWorker = false;
      }
    }
    return this.edgeWorker && !this.edgeWorker.failed ? this.edgeWorker : null;
  }

  /**
   * Large graphs: each of the first `count` nodes on screen as an opaque square of its colour in
   * `image`, over the edges, at the places the last `rasterizeEdges` computed.
   */
  rasterizeNodes(ratio, count = this.nodes.length) {
    const { width, height } = this.image;
    const { pixels, px, py, colorOf, colorPixels } = this;
    const side = Math.max(2, Math.round(2.5 * ratio)); const half = side >> 1;
    for (let i = 0; i < count; i += 1) {
      const left = Math.round(px[i]) - half; const top = Math.round(py[i]) - half;
      if (left < 0 || top < 0 || left + side > width || top + side > height) continue;
      const pixel = colorPixels[colorOf[i]];
      for (let row = top; row < top + side; row += 1) pixels.fill(pixel, row * width + left, row * width + left + side);
    }
  }

  /** Nodes on screen, one path per colour: circles sized by degree, or small squares for large graphs. */
  drawNodes(width, height) {
    const context = this.context;
    const { sx, sy, colorOf, nodes } = this;
    const count = nodes.length;
    const large = count > LARGE;
    const half = count > 5000 ? 1.25 : 1.75;
    for (let c = 0; c < this.colors.length; c += 1) {
      context.fillStyle = this.colors[c];
      context.beginPath();
      for (let i = 0; i < count; i += 1) {
        if (colorOf[i] !== c) continue;
        const x = sx[i]; const y = sy[i];
        if (x < -10 || y < -10 || x > width + 10 || y > height + 10) continue;
        if (large) {
          context.rect(x - half, y - half, half * 2, half * 2);
        } else {
          const r = Math.min(10, 3 + Math.sqrt(nodes[i].degree || 0));
          context.moveTo(x + r, y);
          context.arc(x, y, r, 0, Math.PI * 2);
        }
      }
      context.fill();
    }
  }

  /** The node nearest to a screen point, within reach of a finger. */
  nodeAt(x, y) {
    let best = -1;
    let bestDistance = 24 * 24;
    const { sx, sy } = this;
    for (let i = 0; i < this.nodes.length; i += 1) {
      const d = (sx[i] - x) ** 2 + (sy[i] - y) ** 2;
      if (d < bestDistance) { best = i; bestDistance = d; }
    }
    return best < 0 ? null : this.nodes[best];
  }

  listen() {
    const canvas = this.canvas;
    const pointers = new Map();
    let moved = false;
    canvas.addEventListener('wheel', (event) => {
      event.preventDefault();
      this.zoom(Math.exp(-event.deltaY * 0.0015), { x: event.offsetX, y: event.offsetY });
    }, { passive: false });
    canvas.addEventListener('pointerdown', (event) => {
      canvas.setPointerCapture(event.pointerId);
      pointers.set(event.pointerId, { x: event.offsetX, y: event.offsetY });
      moved = false;
    });
    canvas.addEventListener('pointermove', (event) => {
      const before = pointers.get(event.pointerId);
      if (!before) {
        const node = this.nodeAt(event.offsetX, event.offsetY);
        this.onSelect(node, event.offsetX, event.offsetY);
        return;
      }
      const now = { x: event.offsetX, y: event.offsetY };
      if (pointers.size === 2) {
        const [other] = [...pointers.entries()].filter(([id]) => id !== event.pointerId).map(([, p]) => p);
        const was = Math.hypot(before.x - other.x, before.y - other.y);
        const is = Math.hypot(now.x - other.x, now.y - other.y);
        if (was > 0) this.zoom(is / was, { x: (now.x + other.x) / 2, y: (now.y + other.y) / 2 });
      } else {
        this.offset.x += now.x - before.x;
        this.offset.y += now.y - before.y;
        this.request();
      }
      if (Math.abs(now.x - before.x) + Math.abs(now.y - before.y) > 2) moved = true;
      pointers.set(event.pointerId, now);
    });
    const release = (event) => {
      if (!pointers.delete(event.pointerId)) return;
      if (!moved) this.onSelect(this.nodeAt(event.offsetX, event.offsetY), event.offsetX, event.offsetY);
    };
    canvas.addEventListener('pointerup', release);
    canvas.addEventListener('pointercancel', (event) => pointers.delete(event.pointerId));
  }
}
