// An event's growth as an inline SVG built with DOM calls (no markup strings, nothing inline
// for the CSP to refuse): new connections per bucket as bars, cumulative people and connections
// as two lines, each on its own scale, labelled with its latest value.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 220;
const PLOT = { left: 8, right: 592, top: 30, bottom: 190 };
/** More buckets than this are drawn as this many bars (sums of neighbours). */
const MAX_BARS = 240;

function element(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text != null) node.textContent = text;
  return node;
}

/** A polyline through `values` (0…max) across the plot. */
function line(values, max) {
  const step = values.length > 1 ? (PLOT.right - PLOT.left) / (values.length - 1) : 0;
  const y = (v) => (PLOT.bottom - (max ? (v / max) * (PLOT.bottom - PLOT.top) : 0)).toFixed(1);
  return values.map((v, i) => `${i ? 'L' : 'M'}${(PLOT.left + i * step).toFixed(1)} ${y(v)}`).join('');
}

/**
 * Draws `buckets` (from `/v1/events/{event}/growth`) into `svg` (an <svg> element), replacing what
 * it held; `timeZone` names the event's zone for the axis labels. Returns a one-line description.
 */
export function drawGrowth(svg, buckets, { timeZone } = {}) {
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  if (!buckets.length) {
    svg.replaceChildren(element('text', { x: WIDTH / 2, y: HEIGHT / 2, class: 'empty', 'text-anchor': 'middle' }, 'No connections yet'));
    return 'No connections yet.';
  }
  const group = Math.ceil(buckets.length / MAX_BARS);
  const bars = [];
  for (let i = 0; i < buckets.length; i += group) {
    bars.push(buckets.slice(i, i + group).reduce((sum, bucket) => sum + bucket.newConnections, 0));
  }
  const maxBar = Math.max(1, ...bars);
  const barWidth = (PLOT.right - PLOT.left) / bars.length;
  const barPath = bars.map((value, i) => {
    const height = (value / maxBar) * (PLOT.bottom - PLOT.top) * 0.6;
    return value ? `M${(PLOT.left + i * barWidth).toFixed(1)} ${PLOT.bottom}v${(-height).toFixed(1)}h${Math.max(barWidth - 1, 0.5).toFixed(1)}v${height.toFixed(1)}z` : '';
  }).join('');
  const last = buckets[buckets.length - 1];
  const connections = buckets.map((b) => b.cumulativeConnections);
  const people = buckets.map((b) => b.cumulativePeople);
  const format = new Intl.DateTimeFormat([], { timeZone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const number = (n) => n.toLocaleString();
  svg.replaceChildren(
    element('path', { class: 'bars', d: barPath }),
    element('path', { class: 'connections', d: line(connections, last.cumulativeConnections) }),
    element('path', { class: 'people', d: line(people, last.cumulativePeople) }),
    element('line', { class: 'axis', x1: PLOT.left, x2: PLOT.right, y1: PLOT.bottom, y2: PLOT.bottom }),
    element('text', { class: 'legend connections', x: PLOT.left, y: 14 }, `— ${number(last.cumulativeConnections)} connections`),
    element('text', { class: 'legend people', x: WIDTH / 2, y: 14, 'text-anchor': 'middle' }, `— ${number(last.cumulativePeople)} people`),
    element('text', { class: 'legend bars', x: PLOT.right, y: 14, 'text-anchor': 'end' }, `▮ new connections (max ${number(maxBar)})`),
    element('text', { class: 'tick', x: PLOT.left, y: HEIGHT - 8 }, format.format(new Date(buckets[0].start))),
    element('text', { class: 'tick', x: PLOT.right, y: HEIGHT - 8, 'text-anchor': 'end' }, format.format(new Date(last.start))),
  );
  return `${number(last.cumulativeConnections)} connections among ${number(last.cumulativePeople)} people, `
    + `from ${format.format(new Date(buckets[0].start))} to ${format.format(new Date(last.start))}.`;
}
