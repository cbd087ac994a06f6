// A `GraphView`'s frames on its canvas. The edges are one path, kept until positions change
// (panning and zooming only redraw it), or above 20,000 edges rasterized by the page on both
// cores (edge-raster.js); nodes are one path per colour, off-screen ones skipped.

import { EdgeRasterWorker, rasterizeEdges } from './edge-raster.js';
import { grow } from './graph-data.js';
import { drawLabels } from './graph-labels.js';

/** Above this many nodes, nodes are small squares (cheaper than circles). */
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

/**
 * Draws a `GraphData` as a `ViewTransform` shows it. What it keeps from frame to frame: the edge
 * path, the large graph's image and counts, the edge worker and its share.
 */
export class GraphPainter {
  /** @param magnify how much larger labels, nodes and edges are drawn (1: as on a phone or a laptop) */
  constructor(canvas, magnify = 1) {
    this.canvas = canvas;
    this.magnify = magnify;
    /** The labels the last frame drew ({x, y, width, height}, CSS pixels). */
    this.labels = [];
    this.context = canvas.getContext('2d');
    /** The edges' path in layout units, for the graph's `edgesVersion` and the glide's progress. */
    this.edgePath = null;
    this.edgePathVersion = -1;
    this.edgePathT = 1;
    /** Large graphs: the frame's image, its pixels as words, each pixel's edge count, node pixel positions. */
    this.image = null;
    this.pixels = null;
    this.hits = null;
    this.px = new Float32Array(0); this.py = new Float32Array(0);
    /** The opaque pixel of each of the graph's colours (`colorPixels[i]` for `colors[i]`). */
    this.colorPixels = new Uint32Array(0);
    this.pixelColors = null;
    /** Counts changes of the canvas's size, which a frame in flight cannot follow. */
    this.sizeVersion = 0;
    this.edgeWorker = null;
    /** The share of the edges the worker rasterizes (`balance` adjusts it). */
    this.workerShare = 0.5;
    /** A large graph's frame in flight (its edges being rasterized), and whether another was asked for meanwhile. */
    this.drawing = null;
    this.drawAgain = false;
    this.lastFrameMs = 0;
  }

  /** Sizes the canvas's pixels for a CSS size at the screen's pixel ratio. */
  resize(cssWidth, cssHeight) {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.round(cssWidth * ratio); const height = Math.round(cssHeight * ratio);
    // Setting a canvas's size clears it, even to the same size.
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
      this.sizeVersion += 1;
    }
  }

  /**
   * Draws one frame of `graph` as `transform` shows it; its cost in milliseconds is kept in
   * `lastFrameMs`. Settles when the frame is on the canvas: at once for small graphs; for large
   * ones, when the edge worker has done its share. A draw asked for meanwhile waits for that one.
   * True if another frame should follow (a glide goes on, a draw was asked for meanwhile, or the
   * canvas changed size under this one), with the positions of then.
   */
  async draw(graph, transform, started = performance.now()) {
    if (this.drawing) {
      this.drawAgain = true;
      await this.drawing;
      return false;
    }
    const ratio = window.devicePixelRatio || 1;
    const context = this.context;
    const { width, height } = transform;
    const t = graph.frameProgress(started);
    const count = graph.nodes.length;
    const { fromX, fromY, toX, toY, sx, sy } = graph;
    const { scale } = transform;
    const ox = transform.offset.x; const oy = transform.offset.y;
    for (let i = 0; i < count; i += 1) {
      sx[i] = (fromX[i] + (toX[i] - fromX[i]) * t) * scale + ox;
      sy[i] = (fromY[i] + (toY[i] - fromY[i]) * t) * scale + oy;
    }
    if (graph.edgeCount > RASTERIZED_EDGES) {
      const size = this.sizeVersion;
      this.drawing = this.rasterizeEdges(graph, transform, t, ratio);
      try {
        await this.drawing;
      } finally {
        this.drawing = null;
      }
      if (size !== this.sizeVersion) {
        // The canvas changed size while the edges were drawn: this image no longer fits it.
        this.drawAgain = false;
        return true;
      }
      // Nodes added meanwhile have no place in this frame yet: the next one (asked for) shows them.
      this.rasterizeNodes(graph, ratio, count);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.putImageData(this.image, 0, 0);
    } else {
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, width, height);
      this.drawEdges(graph, transform, t, ratio);
      this.drawNodes(graph, width, height);
    }
    this.labels = drawLabels(context, graph, sx, sy, transform.area(), (i) => this.radius(graph, i), this.magnify);
    this.lastFrameMs = performance.now() - started;
    const again = Boolean(graph.glide) || this.drawAgain;
    this.drawAgain = false;
    return again;
  }

  /**
   * Every edge as one path in layout units, stroked under the view's transform: the path is built
   * again only when positions change (a glide, a new edge), so a pan or zoom costs one stroke call.
   * Large graphs: rasterized (see `rasterizeEdges`) and put; the promise settles when they are.
   */
  async drawEdges(graph, transform, t, ratio) {
    const context = this.context;
    const count = graph.edgeCount;
    if (count > RASTERIZED_EDGES) {
      await this.rasterizeEdges(graph, transform, t, ratio);
      context.putImageData(this.image, 0, 0);
      return;
    }
    if (this.edgePathVersion !== graph.edgesVersion || this.edgePathT !== t) {
      const { ends, fromX, fromY, toX, toY } = graph;
      const path = new Path2D();
      for (let e = 0; e < count; e += 1) {
        const a = ends[e * 2]; const b = ends[e * 2 + 1];
        path.moveTo(fromX[a] + (toX[a] - fromX[a]) * t, fromY[a] + (toY[a] - fromY[a]) * t);
        path.lineTo(fromX[b] + (toX[b] - fromX[b]) * t, fromY[b] + (toY[b] - fromY[b]) * t);
      }
      this.edgePath = path;
      this.edgePathVersion = graph.edgesVersion;
      this.edgePathT = t;
    }
    const { scale, offset } = transform;
    context.setTransform(ratio * scale, 0, 0, ratio * scale, ratio * offset.x, ratio * offset.y);
    context.lineWidth = ((count > 20000 ? 0.6 : 1) * this.magnify) / scale;
    const opacity = Math.min(0.9, (count > 5000 ? 0.16 : 0.5) * this.magnify);
    context.strokeStyle = `rgba(${EDGE_RGB.join(',')},${opacity})`;
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
  async rasterizeEdges(graph, transform, t, ratio) {
    const { width, height } = this.canvas;
    if (!this.image || this.image.width !== width || this.image.height !== height) {
      this.image = this.context.createImageData(width, height);
      this.pixels = new Uint32Array(this.image.data.buffer);
      this.hits = new Uint8Array(width * height);
    }
    const n = graph.nodes.length;
    this.px = grow(this.px, n);
    this.py = grow(this.py, n);
    const { px, py, hits } = this;
    const { fromX, fromY, toX, toY, ends, edgeCount } = graph;
    const k = transform.scale * ratio; const ox = transform.offset.x * ratio; const oy = transform.offset.y * ratio;
    for (let i = 0; i < n; i += 1) {
      px[i] = (fromX[i] + (toX[i] - fromX[i]) * t) * k + ox;
      py[i] = (fromY[i] + (toY[i] - fromY[i]) * t) * k + oy;
    }
    const worker = this.startEdgeWorker();
    const split = worker ? Math.round(edgeCount * (1 - this.workerShare)) : edgeCount;
    const theirs = worker?.rasterize({
      width, height, px, py, ends, edgeCount, edgesVersion: graph.edgesVersion, first: split, last: edgeCount,
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
   * Large graphs: each of the first `count` nodes of `graph` on screen as an opaque square of its
   * colour in `image`, over the edges, at the places the last `rasterizeEdges` computed.
   */
  rasterizeNodes(graph, ratio, count = graph.nodes.length) {
    const { width, height } = this.image;
    const { pixels, px, py } = this;
    const { colorOf } = graph;
    const colorPixels = this.pixelsOf(graph.colors);
    const side = Math.max(2, Math.round(2.5 * ratio)); const half = side >> 1;
    for (let i = 0; i < count; i += 1) {
      const left = Math.round(px[i]) - half; const top = Math.round(py[i]) - half;
      if (left < 0 || top < 0 || left + side > width || top + side > height) continue;
      const pixel = colorPixels[colorOf[i]];
      for (let row = top; row < top + side; row += 1) pixels.fill(pixel, row * width + left, row * width + left + side);
    }
  }

  /** The opaque pixel of each of `colors` (a graph's, which only grows until the graph is replaced). */
  pixelsOf(colors) {
    if (this.pixelColors !== colors || this.colorPixels.length !== colors.length) {
      this.colorPixels = Uint32Array.from(colors, (color) => pixelOf(color));
      this.pixelColors = colors;
    }
    return this.colorPixels;
  }

  /** Node i's radius on screen, in CSS pixels: by degree, or a small square's half side for large graphs. */
  radius(graph, i) {
    const count = graph.nodes.length;
    if (count > LARGE) return (count > 5000 ? 1.25 : 1.75) * this.magnify;
    return Math.min(10, 3 + Math.sqrt(graph.nodes[i].degree || 0)) * this.magnify;
  }

  /** Nodes on screen, one path per colour: circles sized by degree, or small squares for large graphs. */
  drawNodes(graph, width, height) {
    const context = this.context;
    const { sx, sy, colorOf, nodes, colors } = graph;
    const count = nodes.length;
    const large = count > LARGE;
    for (let c = 0; c < colors.length; c += 1) {
      context.fillStyle = colors[c];
      context.beginPath();
      for (let i = 0; i < count; i += 1) {
        if (colorOf[i] !== c) continue;
        const x = sx[i]; const y = sy[i];
        if (x < -10 || y < -10 || x > width + 10 || y > height + 10) continue;
        const r = this.radius(graph, i);
        if (large) {
          context.rect(x - r, y - r, r * 2, r * 2);
        } else {
          context.moveTo(x + r, y);
          context.arc(x, y, r, 0, Math.PI * 2);
        }
      }
      context.fill();
    }
  }
}
