// Where a `GraphView` looks: the canvas's size in CSS pixels, and the scale and offset that take
// layout units to it (screen = layout × scale + offset). Fit, zoom, pan and centre change them;
// while it follows the picture (until a person pans or zooms), every frame keeps the whole picture
// inside the free part of the canvas, easing there rather than jumping. A small picture is not
// blown up: its links are drawn at most a quarter of the area's shorter side long.

/** The share of the way to the fit that one frame of following goes. */
const EASE = 0.2;
/** The longest a typical link is drawn, as a share of the area's shorter side: two people sit near the middle, not at its edges. */
const LONGEST_LINK = 0.25;

export class ViewTransform {
  /** @param padding the margin, in CSS pixels, that a fit keeps free around the graph */
  constructor(padding) {
    this.padding = padding;
    this.scale = 1;
    this.offset = { x: 0, y: 0 };
    this.width = 0;
    this.height = 0;
    /** Whether a fit has placed a graph yet: until then, a new size or graph is fitted again. */
    this.fitted = false;
    /** Whether each frame keeps the picture fitted (until a person pans or zooms; `fit` resumes it). */
    this.following = true;
    /** The rectangle of the canvas (CSS pixels) the picture may use; null: all of it. */
    this.region = null;
    /** A typical link's length in layout units (null without links): a fit draws it at most `LONGEST_LINK` of the area. */
    this.linkLength = null;
  }

  /** Where the picture may go: the region (or the whole view) less the padding. */
  area() {
    const r = this.region || { left: 0, top: 0, right: this.width, bottom: this.height };
    const pad = Math.max(0, Math.min(this.padding, (r.right - r.left) / 4, (r.bottom - r.top) / 4));
    return { left: r.left + pad, top: r.top + pad, right: r.right - pad, bottom: r.bottom - pad };
  }

  /** The scale and offset that centre `box` (layout units) in `area`, as large as it fits. */
  fitting(box, area = this.area()) {
    const spanX = box.maxX - box.minX; const spanY = box.maxY - box.minY;
    let scale = Math.min((area.right - area.left) / Math.max(spanX, 1e-9), (area.bottom - area.top) / Math.max(spanY, 1e-9));
    if (this.linkLength > 0) {
      scale = Math.min(scale, (LONGEST_LINK * Math.min(area.right - area.left, area.bottom - area.top)) / this.linkLength);
    }
    // One point, or all in one place: any scale fits; keep the one there is.
    if (!Number.isFinite(scale) || scale <= 0 || (spanX < 1e-9 && spanY < 1e-9)) scale = this.scale;
    return {
      scale,
      offset: {
        x: (area.left + area.right) / 2 - ((box.minX + box.maxX) / 2) * scale,
        y: (area.top + area.bottom) / 2 - ((box.minY + box.maxY) / 2) * scale,
      },
    };
  }

  /** Fits `box` at once and follows the picture from now on; false, changing nothing, without a box or a size. */
  fit(box) {
    if (!box || !this.width) return false;
    Object.assign(this, this.fitting(box));
    this.fitted = true;
    this.following = true;
    return true;
  }

  /**
   * One frame of following `box` (the positions this frame draws): a step towards its fit, as long
   * as one that keeps the whole box inside the area (the step's corners move in straight lines, so
   * the shortest step that keeps them in is found exactly). True while the view is still moving.
   */
  follow(box) {
    if (!box || !this.width) return false;
    const area = this.area();
    const target = this.fitting(box, area);
    const from = { scale: this.scale, x: this.offset.x, y: this.offset.y };
    // How far outside each side the box lies with a transform: ≤ 0 when inside.
    const outside = (scale, x, y) => [
      area.left - (box.minX * scale + x), box.maxX * scale + x - area.right,
      area.top - (box.minY * scale + y), box.maxY * scale + y - area.bottom,
    ];
    const before = outside(from.scale, from.x, from.y);
    const after = outside(target.scale, target.offset.x, target.offset.y);
    let step = EASE;
    for (let side = 0; side < 4; side += 1) {
      if (before[side] > 0) step = Math.max(step, before[side] / (before[side] - Math.min(after[side], 0) || 1));
    }
    step = Math.min(1, step);
    const moving = Math.abs(target.scale - from.scale) > target.scale * 1e-3
      || Math.abs(target.offset.x - from.x) > 0.5 || Math.abs(target.offset.y - from.y) > 0.5;
    if (!moving) step = 1;
    // In view, no node moves over 1% of the shorter side a frame for the view's sake.
    const ds = target.scale - from.scale;
    const far = Math.max(...[box.minX, box.maxX].flatMap((x) => [box.minY, box.maxY].map((y) =>
      Math.hypot(ds * x + target.offset.x - from.x, ds * y + target.offset.y - from.y))));
    const limit = 0.01 * Math.min(area.right - area.left, area.bottom - area.top);
    if (moving && before.every((d) => d <= 0) && far * step > limit) step = limit / far;
    this.scale = from.scale + (target.scale - from.scale) * step;
    this.offset = { x: from.x + (target.offset.x - from.x) * step, y: from.y + (target.offset.y - from.y) * step };
    return moving && step < 1;
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

/** The scale at which the first `count` points (`xs`, `ys`), turned by `turn` radians, fit a `width` × `height` area. */
export function scaleUnder(turn, xs, ys, count, width, height) {
  const cos = Math.cos(turn); const sin = Math.sin(turn);
  let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
  for (let i = 0; i < count; i += 1) {
    const x = xs[i] * cos - ys[i] * sin; const y = xs[i] * sin + ys[i] * cos;
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
  }
  return Math.min(width / Math.max(maxX - minX, 1e-9), height / Math.max(maxY - minY, 1e-9));
}

/**
 * The turn (radians) that lets the first `count` points fill a `width` × `height` area best: the
 * one, in steps of 5°, under which they fit it at the largest scale. A picture's long side then
 * lies along the screen's, whatever way the layout drew it.
 */
export function fillingTurn(xs, ys, count, width, height) {
  let best = 0; let bestScale = -Infinity;
  for (let degrees = 0; degrees < 180; degrees += 5) {
    const angle = (degrees * Math.PI) / 180;
    const scale = scaleUnder(angle, xs, ys, count, width, height);
    // Ties (a round picture) keep the smaller turn: no turn for nothing.
    if (scale > bestScale * 1.001) { best = angle; bestScale = scale; }
  }
  return best;
}
