// A `GraphView`'s canvas under a mouse, a finger or two: wheel and pinch zoom, drag pans, and
// hovering or tapping a node selects it (a tap is a press that did not move).

/** The node of `graph` (a `GraphData`) nearest to the screen point (x, y) in the last frame, within reach of a finger. */
export function nodeAt(graph, x, y) {
  let best = -1;
  let bestDistance = 24 * 24;
  const { sx, sy } = graph;
  for (let i = 0; i < graph.nodes.length; i += 1) {
    const d = (sx[i] - x) ** 2 + (sy[i] - y) ** 2;
    if (d < bestDistance) { best = i; bestDistance = d; }
  }
  return best < 0 ? null : graph.nodes[best];
}

/**
 * Listens to `canvas`: `zoom(factor, at)` around a screen point, `pan(dx, dy)` in CSS pixels,
 * `select(x, y)` for a hover or a tap at a screen point.
 */
export function listen(canvas, { zoom, pan, select }) {
  const pointers = new Map();
  let moved = false;
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    zoom(Math.exp(-event.deltaY * 0.0015), { x: event.offsetX, y: event.offsetY });
  }, { passive: false });
  canvas.addEventListener('pointerdown', (event) => {
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.offsetX, y: event.offsetY });
    moved = false;
  });
  canvas.addEventListener('pointermove', (event) => {
    const before = pointers.get(event.pointerId);
    if (!before) {
      select(event.offsetX, event.offsetY);
      return;
    }
    const now = { x: event.offsetX, y: event.offsetY };
    if (pointers.size === 2) {
      const [other] = [...pointers.entries()].filter(([id]) => id !== event.pointerId).map(([, p]) => p);
      const was = Math.hypot(before.x - other.x, before.y - other.y);
      const is = Math.hypot(now.x - other.x, now.y - other.y);
      if (was > 0) zoom(is / was, { x: (now.x + other.x) / 2, y: (now.y + other.y) / 2 });
    } else {
      pan(now.x - before.x, now.y - before.y);
    }
    if (Math.abs(now.x - before.x) + Math.abs(now.y - before.y) > 2) moved = true;
    pointers.set(event.pointerId, now);
  });
  const release = (event) => {
    if (!pointers.delete(event.pointerId)) return;
    if (!moved) select(event.offsetX, event.offsetY);
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', (event) => pointers.delete(event.pointerId));
}
