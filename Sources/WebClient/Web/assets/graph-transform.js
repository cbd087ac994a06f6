// Where a `GraphView` looks: the canvas's size in CSS pixels, and the scale and offset that take
// layout units to it (screen = layout × scale + offset). Fit, zoom, pan and centre change them.

export class ViewTransform {
  /** @param padding the margin, in CSS pixels, that `fit` keeps free around the graph */
  constructor(padding) {
    this.padding = padding;
    this.scale = 1;
    this.offset = { x: 0, y: 0 };
    this.width = 0;
    this.height = 0;
    /** Whether `fit` has placed a graph yet: until then, a new size or graph is fitted again. */
    this.fitted = false;
  }

  /**
   * Fits the first `count` points (`xs`, `ys`: layout units) in the view; false, changing nothing,
   * if there are none or the view has no size yet.
   */
  fit(xs, ys, count) {
    const { width, height } = this;
    if (!count || !width) return false;
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (let i = 0; i < count; i += 1) {
      const x = xs[i]; const y = ys[i];
      if (x < minX) minX = x; if (x > maxX) maxX = x;
      if (y < minY) minY = y; if (y > maxY) maxY = y;
    }
    const spanX = Math.max(maxX - minX, 1e-9); const spanY = Math.max(maxY - minY, 1e-9);
    const margin = Math.min(this.padding, width / 4, height / 4) * 2;
    this.scale = Math.min((width - margin) / spanX, (height - margin) / spanY);
    if (!Number.isFinite(this.scale) || this.scale <= 0 || count === 1) this.scale = 1;
    this.offset = { x: width / 2 - ((minX + maxX) / 2) * this.scale, y: height / 2 - ((minY + maxY) / 2) * this.scale };
    this.fitted = true;
    return true;
  }

  /** Zooms by `factor` around a screen point (the centre by default). */
  zoom(factor, at = null) {
    const point = at || { x: this.width / 2, y: this.height / 2 };
    this.offset.x = point.x - (point.x - this.offset.x) * factor;
    this.offset.y = point.y - (point.y - this.offset.y) * factor;
    this.scale *= factor;
  }

  /** Moves the picture by (dx, dy) CSS pixels. */
  pan(dx, dy) {
    this.offset.x += dx;
    this.offset.y += dy;
  }

  /** Brings the layout point (x, y) to the middle of the view. */
  centerOn(x, y) {
    this.offset = { x: this.width / 2 - x * this.scale, y: this.height / 2 - y * this.scale };
  }

  /** The layout point under the screen point (x, y). */
  toLayout(x, y) {
    return { x: (x - this.offset.x) / this.scale, y: (y - this.offset.y) / this.scale };
  }
}
