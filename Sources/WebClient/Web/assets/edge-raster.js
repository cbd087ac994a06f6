// The edges of a large graph as one-pixel lines without anti-aliasing, counted per pixel (up to
// 255), for `GraphPainter` (graph-draw.js) to shade: the page's own rasterizer, shared by the
// page and by the worker that takes a share of the edges to the other core (`EdgeRasterWorker`).

/** `clip`'s answer, reused. */
const CLIPPED = new Float64Array(4);

/**
 * The part of the segment (x0, y0)–(x1, y1) inside [0, right] × [0, bottom] (Liang–Barsky), into
 * `out` as x0, y0, x1, y1; false if none of it is.
 */
function clip(x0, y0, x1, y1, right, bottom, out) {
  out[0] = x0; out[1] = y0; out[2] = x1; out[3] = y1;
  if (x0 >= 0 && x0 <= right && x1 >= 0 && x1 <= right && y0 >= 0 && y0 <= bottom && y1 >= 0 && y1 <= bottom) return true;
  const dx = x1 - x0; const dy = y1 - y0;
  let enter = 0; let leave = 1;
  // Per side of the box: p, how fast the segment heads out through it; q, how far inside it starts.
  for (let side = 0; side < 4; side += 1) {
    const p = side === 0 ? -dx : side === 1 ? dx : side === 2 ? -dy : dy;
    const q = side === 0 ? x0 : side === 1 ? right - x0 : side === 2 ? y0 : bottom - y0;
    if (p === 0) {
      if (q < 0) return false;
    } else if (p < 0) {
      enter = Math.max(enter, q / p);
    } else {
      leave = Math.min(leave, q / p);
    }
    if (enter > leave) return false;
  }
  out[0] = x0 + enter * dx; out[1] = y0 + enter * dy;
  out[2] = x0 + leave * dx; out[3] = y0 + leave * dy;
  return true;
}

/**
 * Adds to `hits` (one byte a pixel of a `width` × `height` image) the pixels of edges `first` to
 * `last` (exclusive): edge e joins the points `ends[2e]` and `ends[2e + 1]`, whose
 * pixel coordinates are in `px` and `py`.
 */
export function rasterizeEdges(hits, width, height, px, py, ends, first, last) {
  const right = width - 1; const bottom = height - 1;
  const segment = CLIPPED;
  for (let e = first; e < last; e += 1) {
    const a = ends[e * 2]; const b = ends[e * 2 + 1];
    if (!clip(px[a], py[a], px[b], py[b], right, bottom, segment)) continue;
    const dx = segment[2] - segment[0]; const dy = segment[3] - segment[1];
    const steps = Math.ceil(Math.max(Math.abs(dx), Math.abs(dy)));
    // Fixed point, 16 bits of fraction: the pixel is the integer part (coordinates stay below 2^15).
    let x = (segment[0] * 65536 + 32768) | 0; let y = (segment[1] * 65536 + 32768) | 0;
    const stepX = steps ? ((dx / steps) * 65536) | 0 : 0; const stepY = steps ? ((dy / steps) * 65536) | 0 : 0;
    for (let s = 0; s <= steps; s += 1) {
      const pixel = (y >> 16) * width + (x >> 16);
      const count = hits[pixel] + 1;
      hits[pixel] = count | -(count >> 8);  // stays at 255 (as -1) rather than wrap to 0
      x += stepX; y += stepY;
    }
  }
}

/** How long a frame waits for the worker before the page gives up on it. */
const WORKER_PATIENCE_MS = 2000;
/**
 * The same for the worker's first answer, which also waits for the worker to start (its module
 * loaded and compiled, on a busy phone or two loaded cores: a CI run once took more than 2 s).
 */
const FIRST_ANSWER_PATIENCE_MS = 10_000;

/**
 * A module worker running `rasterizeEdges` on a share of the edges, so that a frame uses both
 * cores of a phone or laptop. The edges are sent only when they change; positions every frame.
 * If the worker cannot start, fails or does not answer in time, `rasterize` rejects and `failed`
 * stays true: the page draws every edge itself from then on.
 */
export class EdgeRasterWorker {
  constructor() {
    this.failed = false;
    /** Whether the worker has answered once (it has started). */
    this.answered = false;
    this.hits = new Uint8Array(0);
    this.edgesSent = null;
    this.waiting = null;
    this.worker = new Worker(new URL('./edge-raster-worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = ({ data }) => {
      this.hits = new Uint8Array(data.hits);
      const waiting = this.waiting; this.waiting = null;
      waiting?.resolve({ hits: this.hits, ms: data.ms });
    };
    this.worker.onerror = this.worker.onmessageerror = (event) => {
      event.preventDefault?.();
      this.fail(new Error(`the edge worker failed: ${event.message || 'unreadable message'}`));
    };
  }

  /**
   * Rasterizes edges `first` to `last` of the `edgeCount` in `ends` into the worker's own `width` ×
   * `height` counts; the promise gives them back with the milliseconds the worker spent.
   * `edgesVersion` says whether `ends` changed since the last call.
   */
  rasterize({ width, height, px, py, ends, edgeCount, edgesVersion, first, last }) {
    if (this.failed) return Promise.reject(new Error('the edge worker failed'));
    if (this.waiting) return Promise.reject(new Error('the edge worker is busy'));
    let hits = this.hits;
    if (hits.length !== width * height) hits = new Uint8Array(width * height);
    const edges = this.edgesSent === edgesVersion ? null : ends.slice(0, edgeCount * 2);
    this.edgesSent = edgesVersion;
    const promise = new Promise((resolve, reject) => { this.waiting = { resolve, reject }; });
    const patience = this.answered ? WORKER_PATIENCE_MS : FIRST_ANSWER_PATIENCE_MS;
    const timer = setTimeout(() => this.fail(new Error('the edge worker did not answer')), patience);
    promise.then(() => { clearTimeout(timer); this.answered = true; }, () => clearTimeout(timer));
    const lent = edges ? [hits.buffer, edges.buffer] : [hits.buffer];
    this.worker.postMessage({ hits: hits.buffer, width, height, px, py, edges, first, last }, lent);
    return promise;
  }

  fail(error) {
    this.failed = true;
    this.worker.terminate();
    const waiting = this.waiting; this.waiting = null;
    waiting?.reject(error);
  }
}
