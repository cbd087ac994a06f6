// A constellation drawn on a canvas from the layout JSON the server sends (`/v1/me/network`,
// `/v1/events/{id}/network`): nodes with x, y, degree and community; edges by node id.
// Zoom (wheel, pinch, buttons), pan (drag), hover or tap to see a node. Positions can glide
// from one layout to the next instead of jumping.

const PALETTE = ['#2f6fdf', '#d9480f', '#2b8a3e', '#ae3ec9', '#e67700', '#0c8599', '#c2255c', '#5c940d', '#6741d9', '#a61e4d'];

/** The colour of a community (the same everywhere a community is shown). */
export function communityColor(community) {
  return community == null ? '#868e96' : PALETTE[community % PALETTE.length];
}

export class GraphView {
  /**
   * @param canvas the <canvas> to draw on (sized by CSS; the view follows its size)
   * @param options.onSelect called with the node under the pointer (or null) and its screen position
   */
  constructor(canvas, { onSelect = () => {} } = {}) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.onSelect = onSelect;
    this.nodes = [];
    this.edges = [];
    this.index = new Map();
    this.scale = 1;
    this.offset = { x: 0, y: 0 };
    this.highlight = null;
    this.lastFrameMs = 0;
    this.pending = false;
    this.fitted = false;
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.listen();
  }

  /** Shows `graph` ({nodes, edges}); nodes already shown glide to their new places over `glideMs`. */
  setGraph(graph, { glideMs = 0 } = {}) {
    const previous = this.index;
    this.nodes = graph.nodes.map((node) => {
      const before = previous.get(node.id);
      return { ...node, fromX: before ? before.x : node.x, fromY: before ? before.y : node.y, toX: node.x, toY: node.y };
    });
    this.index = new Map(this.nodes.map((node) => [node.id, node]));
    this.edges = graph.edges.map((edge) => [this.index.get(edge.source), this.index.get(edge.target)]).filter(([a, b]) => a && b);
    this.glide = glideMs > 0 ? { start: performance.now(), duration: glideMs } : null;
    if (!this.fitted || !glideMs) this.fit();
    this.request();
  }

  /** Fits the whole graph in the canvas. */
  fit() {
    const { width, height } = this.size();
    if (!this.nodes.length || !width) return;
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (const node of this.nodes) {
      minX = Math.min(minX, node.toX); maxX = Math.max(maxX, node.toX);
      minY = Math.min(minY, node.toY); maxY = Math.max(maxY, node.toY);
    }
    const spanX = Math.max(maxX - minX, 1e-9); const spanY = Math.max(maxY - minY, 1e-9);
    this.scale = Math.min((width - 40) / spanX, (height - 40) / spanY);
    if (!Number.isFinite(this.scale) || this.scale <= 0) this.scale = 1;
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

  /** Rings the node with this id (or none), e.g. a search result. */
  focus(id) {
    this.highlight = id == null ? null : this.index.get(id) || null;
    this.request();
    return this.highlight;
  }

  size() {
    return { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = this.size();
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    if (!this.fitted) this.fit();
    this.request();
  }

  request() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  /** Draws one frame; its cost in milliseconds is kept in `lastFrameMs`. */
  draw() {
    const started = performance.now();
    const ratio = window.devicePixelRatio || 1;
    const context = this.context;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    let t = 1;
    if (this.glide) {
      t = Math.min(1, (started - this.glide.start) / this.glide.duration);
      t = t * t * (3 - 2 * t);
      if (t >= 1) this.glide = null;
    }
    const { scale, offset } = this;
    for (const node of this.nodes) {
      node.x = node.fromX + (node.toX - node.fromX) * t;
      node.y = node.fromY + (node.toY - node.fromY) * t;
      node.sx = node.x * scale + offset.x;
      node.sy = node.y * scale + offset.y;
    }
    context.lineWidth = 1;
    context.strokeStyle = this.edges.length > 5000 ? 'rgba(120,130,150,0.18)' : 'rgba(120,130,150,0.5)';
    context.beginPath();
    for (const [a, b] of this.edges) {
      context.moveTo(a.sx, a.sy);
      context.lineTo(b.sx, b.sy);
    }
    context.stroke();
    const small = this.nodes.length > 2000;
    const byColor = new Map();
    for (const node of this.nodes) {
      const color = node.isMe ? '#111' : communityColor(node.community);
      if (!byColor.has(color)) byColor.set(color, []);
      byColor.get(color).push(node);
    }
    for (const [color, nodes] of byColor) {
      context.fillStyle = color;
      context.beginPath();
      for (const node of nodes) {
        const r = small ? 2 : Math.min(10, 3 + Math.sqrt(node.degree || 0));
        context.moveTo(node.sx + r, node.sy);
        context.arc(node.sx, node.sy, r, 0, Math.PI * 2);
      }
      context.fill();
    }
    if (this.nodes.length <= 60) {
      context.fillStyle = getComputedStyle(this.canvas).color;
      context.font = '12px system-ui, sans-serif';
      for (const node of this.nodes) context.fillText(node.label, node.sx + 8, node.sy + 4);
    }
    if (this.highlight) {
      context.strokeStyle = '#f03e3e';
      context.lineWidth = 3;
      context.beginPath();
      context.arc(this.highlight.sx, this.highlight.sy, 12, 0, Math.PI * 2);
      context.stroke();
    }
    this.lastFrameMs = performance.now() - started;
    if (this.glide) this.request();
  }

  /** The node nearest to a screen point, within reach of a finger. */
  nodeAt(x, y) {
    let best = null;
    let bestDistance = 24 * 24;
    for (const node of this.nodes) {
      const d = (node.sx - x) ** 2 + (node.sy - y) ** 2;
      if (d < bestDistance) { best = node; bestDistance = d; }
    }
    return best;
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
