// The names on a `GraphView`'s picture, over its nodes, and the newest connection. Labels are
// placed most important first (the ringed node, then by degree): each beside its node, on the
// first side where it stays inside the free area and clear of every label placed before it; one
// that fits nowhere is left out, so the least important go first and no two ever overlap.

/** At most this many nodes are tried for a label in a frame (the best connected). */
const CANDIDATES = 300;
/** At most this many labels in a frame: more would hide the picture they name. */
const MOST = 60;
/** The sides a label may take, as offsets from its node: right, left, above, below. */
const SIDES = [
  (x, y, w, h, r) => [x + r + 4, y - h / 2], (x, y, w, h, r) => [x - r - 4 - w, y - h / 2],
  (x, y, w, h, r) => [x - w / 2, y - r - 3 - h], (x, y, w, h, r) => [x - w / 2, y + r + 3],
];

/** The nodes of `graph` by importance: indices by degree, highest first (kept until the graph changes). */
function byImportance(graph) {
  const version = `${graph.nodes.length}/${graph.edgesVersion}`;
  if (graph.labelOrder?.version !== version) {
    const order = Array.from(graph.nodes.keys()).sort((a, b) => (graph.nodes[b].degree || 0) - (graph.nodes[a].degree || 0));
    graph.labelOrder = { version, order: order.slice(0, CANDIDATES) };
  }
  return graph.labelOrder.order;
}

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * Labels nodes of `graph` (a `GraphData`) drawn at `sx`, `sy` (CSS pixels) inside `area`
 * ({left, top, right, bottom}), rings its highlighted node and marks its newest edge, on `context`.
 * `radius(i)` is node i's drawn radius; `magnify` scales the text. Returns the labels' rectangles.
 */
export function drawLabels(context, graph, sx, sy, area, radius, magnify = 1) {
  const color = getComputedStyle(context.canvas).color;
  drawNewest(context, graph, sx, sy, magnify);
  const size = Math.round(12 * magnify);
  const ringed = graph.highlight ? graph.index.get(graph.highlight.id) : undefined;
  if (ringed !== undefined) {
    context.strokeStyle = '#f03e3e';
    context.lineWidth = 3;
    context.beginPath();
    context.arc(sx[ringed], sy[ringed], 12 * magnify, 0, Math.PI * 2);
    context.stroke();
  }
  const order = ringed === undefined ? byImportance(graph) : [ringed, ...byImportance(graph).filter((i) => i !== ringed)];
  const placed = [];
  context.fillStyle = color;
  context.textBaseline = 'top';
  for (const i of order) {
    const node = graph.nodes[i];
    if (placed.length >= MOST) break;
    if (!node?.label) continue;
    const x = sx[i]; const y = sy[i];
    if (x < area.left || x > area.right || y < area.top || y > area.bottom) continue;
    const strong = i === ringed;
    context.font = `${strong ? '600 ' : ''}${strong ? size + 2 : size}px system-ui, sans-serif`;
    const width = context.measureText(node.label).width; const height = (strong ? size + 2 : size) * 1.2;
    for (const side of SIDES) {
      const [left, top] = side(x, y, width, height, radius(i));
      const box = { x: left, y: top, width, height };
      if (left < area.left || top < area.top || left + width > area.right || top + height > area.bottom) continue;
      if (placed.some((other) => overlaps(box, other))) continue;
      context.fillText(node.label, left, top + height * 0.1);
      placed.push(box);
      break;
    }
  }
  context.textBaseline = 'alphabetic';
  return placed;
}

/** The newest connection, while it is new: a bright line between its two ends, and both ends ringed. */
function drawNewest(context, graph, sx, sy, magnify) {
  const newest = graph.newest;
  if (!newest || performance.now() > newest.until || newest.a === undefined || newest.b === undefined) return;
  context.strokeStyle = '#ffb000';
  context.lineWidth = 3 * magnify;
  context.beginPath();
  context.moveTo(sx[newest.a], sy[newest.a]);
  context.lineTo(sx[newest.b], sy[newest.b]);
  for (const i of [newest.a, newest.b]) {
    context.moveTo(sx[i] + 9 * magnify, sy[i]);
    context.arc(sx[i], sy[i], 9 * magnify, 0, Math.PI * 2);
  }
  context.stroke();
}
