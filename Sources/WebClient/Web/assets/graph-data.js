// What a `GraphView` shows, apart from how: the nodes and edges of a layout, in typed arrays
// (10,000 people, 100,000 links), where each node glides from and to, its colour, and the node
// ringed. Edges can be added one at a time (live), with a new end placed next to the other.

const PALETTE = ['#2f6fdf', '#d9480f', '#2b8a3e', '#ae3ec9', '#e67700', '#0c8599', '#c2255c', '#5c940d', '#6741d9', '#a61e4d'];
const NO_COMMUNITY = '#868e96';
const ME = '#111111';

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
export function grow(array, needed) {
  if (needed <= array.length) return array;
  const bigger = new array.constructor(Math.max(needed, array.length * 2, 64));
  bigger.set(array);
  return bigger;
}

export class GraphData {
  constructor() {
    /** The nodes as given (plus what was added), in drawing order; `index` maps an id to its position here. */
    this.nodes = [];
    this.index = new Map();
    this.edgeCount = 0;
    this.edgeKeys = new Set();
    /** Layout positions: a node is drawn between from and to, as far as the glide has gone. */
    this.fromX = new Float64Array(0); this.fromY = new Float64Array(0);
    this.toX = new Float64Array(0); this.toY = new Float64Array(0);
    /** Screen positions (CSS pixels) of the nodes in the last frame drawn: the drawing writes them. */
    this.sx = new Float32Array(0); this.sy = new Float32Array(0);
    this.colorOf = new Uint16Array(0);
    /** Edge e joins nodes `ends[2e]` and `ends[2e + 1]`. */
    this.ends = new Int32Array(0);
    /** Counts changes of `ends`, so that what is built from the edges is built again only when they changed. */
    this.edgesVersion = 0;
    this.colors = [];
    this.colorIndex = new Map();
    this.highlight = null;
    this.glide = null;
    /** The turn (radians) every picture given is drawn under: chosen to fill the screen, then kept as the picture grows. */
    this.turn = 0;
  }

  /** Takes `graph` ({nodes, edges}); nodes already shown glide to their new places over `glideMs`. */
  set(graph, glideMs) {
    const t = this.progress(performance.now());
    const count = graph.nodes.length;
    const fromX = new Float64Array(count); const fromY = new Float64Array(count);
    const toX = new Float64Array(count); const toY = new Float64Array(count);
    const index = new Map();
    const nodes = new Array(count);
    const cos = Math.cos(this.turn); const sin = Math.sin(this.turn);
    for (let i = 0; i < count; i += 1) {
      const given = graph.nodes[i];
      const node = { ...given, x: given.x * cos - given.y * sin, y: given.x * sin + given.y * cos };
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
    this.colors = []; this.colorIndex = new Map();
    for (let i = 0; i < count; i += 1) this.colorOf[i] = this.color(nodes[i]);
    this.edgeCount = 0;
    this.edgesVersion += 1;
    this.edgeKeys = new Set();
    this.ends = new Int32Array(graph.edges.length * 2);
    for (const edge of graph.edges) this.link(index.get(edge.source), index.get(edge.target));
    if (this.highlight) this.highlight = nodes[index.get(this.highlight.id)] || null;
    this.glide = glideMs > 0 ? { start: performance.now(), duration: glideMs } : null;
  }

  /**
   * Adds one edge (e.g. a connection just made); an end not shown yet is added next to the other
   * end (or at the centre of `transform`, a `ViewTransform`). `source` and `target` are nodes
   * ({id, label, …}). Returns false if the edge was shown already.
   */
  addEdge(source, target, transform) {
    const a = this.index.get(source.id); const b = this.index.get(target.id);
    if (a !== undefined && b !== undefined && this.edgeKeys.has(pairKey(a, b))) return false;
    const i = a !== undefined ? a : this.addNode(source, b, transform);
    const j = b !== undefined ? b : this.addNode(target, i, transform);
    this.link(i, j);
    this.nodes[i].degree = (this.nodes[i].degree || 0) + 1;
    this.nodes[j].degree = (this.nodes[j].degree || 0) + 1;
    return true;
  }

  /** Appends a node placed near node `near` (an index, or undefined for the centre of `transform`). */
  addNode(node, near, transform) {
    const i = this.nodes.length;
    const grown = i + 1;
    for (const name of ['fromX', 'fromY', 'toX', 'toY', 'sx', 'sy', 'colorOf']) this[name] = grow(this[name], grown);
    let x; let y;
    if (near !== undefined) {
      const spread = this.typicalLength(transform.scale);
      const angle = Math.random() * Math.PI * 2;
      x = this.toX[near] + Math.cos(angle) * spread; y = this.toY[near] + Math.sin(angle) * spread;
    } else {
      const centre = transform.toLayout(transform.width / 2, transform.height / 2);
      x = centre.x + (Math.random() - 0.5) * 20 / transform.scale;
      y = centre.y + (Math.random() - 0.5) * 20 / transform.scale;
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
    this.edgesVersion += 1;
  }

  /** A short distance in layout units (`scale`: the view's): where a new node goes next to its first neighbour. */
  typicalLength(scale) {
    return this.linkLength() * 0.5 || 20 / scale;
  }

  /** The longest way a node glides, in layout units. */
  longestMove() {
    let most = 0;
    for (let i = 0; i < this.nodes.length; i += 1) most = Math.max(most, Math.hypot(this.toX[i] - this.fromX[i], this.toY[i] - this.fromY[i]));
    return most;
  }

  /** The mean length of the first 50 links, in layout units (0 without links). */
  linkLength() {
    const n = Math.min(this.edgeCount, 50);
    let sum = 0;
    for (let e = 0; e < n; e += 1) {
      const a = this.ends[e * 2]; const b = this.ends[e * 2 + 1];
      sum += Math.hypot(this.toX[a] - this.toX[b], this.toY[a] - this.toY[b]);
    }
    return n ? sum / n : 0;
  }

  /** The index of a node's colour in `colors`. */
  color(node) {
    const color = node.isMe ? ME : communityColor(node.community);
    let found = this.colorIndex.get(color);
    if (found === undefined) {
      found = this.colors.length;
      this.colors.push(color);
      this.colorIndex.set(color, found);
    }
    return found;
  }

  /** The box around every node where a frame at glide progress `t` draws it (layout units); null if none. */
  boundsAt(t) {
    const n = this.nodes.length;
    if (!n) return null;
    const { fromX, fromY, toX, toY } = this;
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (let i = 0; i < n; i += 1) {
      const x = fromX[i] + (toX[i] - fromX[i]) * t; const y = fromY[i] + (toY[i] - fromY[i]) * t;
      if (x < minX) minX = x; if (x > maxX) maxX = x;
      if (y < minY) minY = y; if (y > maxY) maxY = y;
    }
    return { minX, minY, maxX, maxY };
  }

  /** How far the current glide has gone at `now`, 0…1 (eased); 1 without a glide. */
  progress(now) {
    if (!this.glide) return 1;
    const t = Math.min(1, (now - this.glide.start) / this.glide.duration);
    return t * t * (3 - 2 * t);
  }

  /** `progress` for a frame drawn at `now`: a glide that has arrived is over. */
  frameProgress(now) {
    const t = this.progress(now);
    if (t >= 1) this.glide = null;
    return t;
  }
}
