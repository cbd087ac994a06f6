// An event's growth as an inline SVG built with DOM calls (no markup strings, nothing inline
// for the CSP to refuse): new connections per bucket as bars, cumulative people and connections
// as two lines, each on its own scale, labelled with its latest value; axes with their scales, and
// each bar's values on hover and from the keyboard.
import { t, number, language } from './i18n.js';

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
 * it held; `timeZone` names the event's zone for the axis labels. The chart has labelled axes and
 * tells each bar's values when pointed at or, with the chart focused, when the arrow keys (Home,
 * End) move along it; `announce(text)` says them (a live region). The time axis's caption goes in
 * `axis` (an element beside the chart, where a long caption wraps rather than being cut off).
 * Returns a one-line description.
 */
export function drawGrowth(svg, buckets, { timeZone, announce = () => {}, axis = null } = {}) {
  // Drawn at the size it is shown (text at its CSS size), however wide the page makes it.
  const width = Math.max(240, Math.round(svg.clientWidth || 320));
  const plot = { left: 36, right: width - 36, top: 48, bottom: HEIGHT - 36 };
  svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
  svg.onkeydown = svg.onpointermove = svg.onpointerleave = svg.onblur = null;
  if (!buckets.length) {
    svg.replaceChildren(element('text', { x: width / 2, y: HEIGHT / 2, class: 'empty', 'text-anchor': 'middle' }, t('growth.empty')));
    return t('growth.empty');
  }
  const group = Math.ceil(buckets.length / Math.min(MAX_BARS, (plot.right - plot.left) / 2));
  const bars = [];
  for (let i = 0; i < buckets.length; i += group) {
    const slice = buckets.slice(i, i + group);
    bars.push({ start: slice[0].start, value: slice.reduce((sum, bucket) => sum + bucket.newConnections, 0), end: slice[slice.length - 1] });
  }
  const maxBar = Math.max(1, ...bars.map((bar) => bar.value));
  const barTop = plot.bottom - (plot.bottom - plot.top) * 0.6;
  const barWidth = (plot.right - plot.left) / bars.length;
  const barPath = bars.map(({ value }, i) => {
    const height = (value / maxBar) * (plot.bottom - barTop);
    return value ? `M${(plot.left + i * barWidth).toFixed(1)} ${plot.bottom}v${(-height).toFixed(1)}h${Math.max(barWidth - 1, 0.5).toFixed(1)}v${height.toFixed(1)}z` : '';
  }).join('');
  const last = buckets[buckets.length - 1];
  const connections = buckets.map((b) => b.cumulativeConnections);
  const people = buckets.map((b) => b.cumulativePeople);
  const format = new Intl.DateTimeFormat(language, { timeZone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const connectionsIn = (bucket) => t('count.connections', { count: bucket.cumulativeConnections });
  const peopleIn = (bucket) => t('count.people', { count: bucket.cumulativePeople });
  const perBar = t('growth.perBar', { count: group });
  const marker = element('rect', { class: 'marker', y: plot.top, width: Math.max(barWidth, 2), height: plot.bottom - plot.top, visibility: 'hidden' });
  const readout = element('text', { class: 'readout', x: width / 2, y: 31, 'text-anchor': 'middle' }, perBar);
  svg.replaceChildren(
    marker,
    element('path', { class: 'bars', d: barPath }),
    element('path', { class: 'connections', d: line(plot, connections, last.cumulativeConnections) }),
    element('path', { class: 'people', d: line(plot, people, last.cumulativePeople) }),
    element('line', { class: 'axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }),
    element('line', { class: 'axis', x1: plot.left, x2: plot.left, y1: plot.top, y2: plot.bottom }),
    element('line', { class: 'axis', x1: plot.right, x2: plot.right, y1: plot.top, y2: plot.bottom }),
    element('text', { class: 'legend connections', x: plot.left, y: 14 }, `— ${connectionsIn(last)}`),
    element('text', { class: 'legend people', x: plot.right, y: 14, 'text-anchor': 'end' }, `— ${peopleIn(last)}`),
    readout,
    // The left scale is the bars', the right the connections' (the people line ends at its legend's value).
    element('text', { class: 'tick', x: plot.left - 4, y: barTop + 4, 'text-anchor': 'end' }, number(maxBar)),
    element('text', { class: 'tick', x: plot.left - 4, y: plot.bottom, 'text-anchor': 'end' }, '0'),
    element('text', { class: 'tick', x: plot.right + 4, y: plot.top + 4 }, number(last.cumulativeConnections)),
    element('text', { class: 'tick', x: plot.right + 4, y: plot.bottom }, '0'),
    element('text', { class: 'tick', x: plot.left, y: HEIGHT - 20 }, format.format(new Date(buckets[0].start))),
    element('text', { class: 'tick', x: plot.right, y: HEIGHT - 20, 'text-anchor': 'end' }, format.format(new Date(last.start))),
  );
  if (axis) axis.textContent = t('growth.axis', { zone: timeZone || t('growth.localTime'), count: group });
  // One bar's values, pointed at or chosen with the keys.
  let chosen = null;
  const choose = (index) => {
    chosen = Math.max(0, Math.min(bars.length - 1, index));
    const bar = bars[chosen];
    const text = t('growth.bar', { time: format.format(new Date(bar.start)), new: bar.value, connections: connectionsIn(bar.end), people: peopleIn(bar.end) });
    readout.textContent = text;
    marker.setAttribute('x', (plot.left + chosen * barWidth).toFixed(1));
    marker.setAttribute('visibility', 'visible');
    announce(text);
  };
  const forget = () => {
    chosen = null;
    readout.textContent = perBar;
    marker.setAttribute('visibility', 'hidden');
  };
  svg.onpointermove = (event) => {
    const box = svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * width;
    if (x >= plot.left && x <= plot.right) choose(Math.floor((x - plot.left) / barWidth));
  };
  svg.onpointerleave = forget;
  svg.onblur = forget;
  svg.onkeydown = (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const step = moves[event.key];
    choose(Number.isFinite(step) ? (chosen ?? (step > 0 ? -1 : bars.length)) + step : (step > 0 ? bars.length - 1 : 0));
  };
  return t('growth.description', {
    connections: connectionsIn(last), people: peopleIn(last), from: format.format(new Date(buckets[0].start)), to: format.format(new Date(last.start)),
  });
}
