// An event's growth as an inline SVG built with DOM calls (no markup strings, nothing inline
// for the CSP to refuse): new connections per bucket as bars, cumulative people and connections
// as two lines, each on its own scale, labelled with its latest value.

const SVG = 'http://www.w3.org/2000/svg';
const HEIGHT = 200;
/** More buckets than this are drawn as this many bars (sums of neighbours). */
const MAX_BARS = 240;

function element(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text != null) node.textContent = text;
  return node;
}

/** A polyline through `values` (0…max) across the plot area. */
function line(plot, values, max) {
  const step = values.length > 1 ? (plot.right - plot.left) / (values.length - 1) : 0;
  const y = (v) => (plot.bottom - (max ? (v / max) * (plot.bottom - plot.top) : 0)).toFixed(1);
  return values.map((v, i) => `${i ? 'L' : 'M'}${(plot.left + i * step).toFixed(1)} ${y(v)}`).join('');
}

/**
 * Draws `buckets` (from `/v1/events/{event}/growth`) into `svg` (an <svg> element), replacing what
 * it held; `timeZone` names the event's zone for the axis labels. Returns a one-line description.
 */
export function drawGrowth(svg, buckets, { timeZone } = {}) {
  // Drawn at the size it is shown (text at its CSS size), however wide the page makes it.
  const width = Math.max(240, Math.round(svg.clientWidth || 320));
  const plot = { left: 4, right: width - 4, top: 40, bottom: HEIGHT - 24 };
  svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
  if (!buckets.length) {
    svg.replaceChildren(element('text', { x: width / 2, y: HEIGHT / 2, class: 'empty', 'text-anchor': 'middle' }, 'No connections yet'));
    return 'No connections yet.';
  }
  const group = Math.ceil(buckets.length / Math.min(MAX_BARS, (plot.right - plot.left) / 2));
  const bars = [];
  for (let i = 0; i < buckets.length; i += group) {
    bars.push(buckets.slice(i, i + group).reduce((sum, bucket) => sum + bucket.newConnections, 0));
  }
  const maxBar = Math.max(1, ...bars);
  const barWidth = (plot.right - plot.left) / bars.length;
  const barPath = bars.map((value, i) => {
    const height = (value / maxBar) * (plot.bottom - plot.top) * 0.6;
    return value ? `M${(plot.left + i * barWidth).toFixed(1)} ${plot.bottom}v${(-height).toFixed(1)}h${Math.max(barWidth - 1, 0.5).toFixed(1)}v${height.toFixed(1)}z` : '';
  }).join('');
  const last = buckets[buckets.length - 1];
  const connections = buckets.map((b) => b.cumulativeConnections);
  const people = buckets.map((b) => b.cumulativePeople);
  const format = new Intl.DateTimeFormat([], { timeZone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const number = (n) => n.toLocaleString();
  svg.replaceChildren(
    element('path', { class: 'bars', d: barPath }),
    element('path', { class: 'connections', d: line(plot, connections, last.cumulativeConnections) }),
    element('path', { class: 'people', d: line(plot, people, last.cumulativePeople) }),
    element('line', { class: 'axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }),
    element('text', { class: 'legend connections', x: plot.left, y: 14 }, `— ${number(last.cumulativeConnections)} connections`),
    element('text', { class: 'legend people', x: plot.right, y: 14, 'text-anchor': 'end' }, `— ${number(last.cumulativePeople)} people`),
    element('text', { class: 'legend bars', x: plot.left, y: 31 }, `▮ new connections per ${group > 1 ? `${group} buckets` : 'bucket'} (max ${number(maxBar)})`),
    element('text', { class: 'tick', x: plot.left, y: HEIGHT - 8 }, format.format(new Date(buckets[0].start))),
    element('text', { class: 'tick', x: plot.right, y: HEIGHT - 8, 'text-anchor': 'end' }, format.format(new Date(last.start))),
  );
  return `${number(last.cumulativeConnections)} connections among ${number(last.cumulativePeople)} people, `
    + `from ${format.format(new Date(buckets[0].start))} to ${format.format(new Date(last.start))}.`;
}
