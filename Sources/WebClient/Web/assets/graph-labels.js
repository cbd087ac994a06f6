// The names on a `GraphView`'s picture, over its nodes: every node's for a small graph (more
// would cover it), and the ringed node's (a search result, say) whatever the graph's size.

/** Up to this many nodes, each is labelled; above, only the ringed one. */
const LABELLED = 60;

/**
 * Labels the first `count` nodes of `graph` (a `GraphData`) at `sx`, `sy` (where this frame drew
 * them, in CSS pixels), and rings its highlighted node, on `context` (CSS pixels).
 */
export function drawLabels(context, graph, sx, sy, count) {
  if (count <= LABELLED) {
    context.fillStyle = getComputedStyle(context.canvas).color;
    context.font = '12px system-ui, sans-serif';
    for (let i = 0; i < count; i += 1) context.fillText(graph.nodes[i].label, sx[i] + 8, sy[i] + 4);
  }
  if (graph.highlight) {
    const i = graph.index.get(graph.highlight.id);
    context.strokeStyle = '#f03e3e';
    context.lineWidth = 3;
    context.beginPath();
    context.arc(sx[i], sy[i], 12, 0, Math.PI * 2);
    context.stroke();
    if (count > LABELLED) {
      context.fillStyle = getComputedStyle(context.canvas).color;
      context.font = '600 14px system-ui, sans-serif';
      context.fillText(graph.highlight.label, sx[i] + 16, sy[i] + 5);
    }
  }
}
