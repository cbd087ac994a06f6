// A constellation in words: the text alternative of a picture's canvas, for whoever does not see
// it (a screen reader reads it after the canvas's name). Who is in it, and in which groups (the
// colours), best connected first; a large picture names its largest groups and their best connected.

/** Up to this many people, everyone is named; above, each group's best connected only. */
const EVERYONE = 30;
/** A large picture describes this many of its largest groups, naming this many people in each. */
const GROUPS = 8;
const NAMES = 5;

function count(n, one, many) {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** `nodes` ({label, community, degree}) and the number of links between them, in a few sentences. */
export function describePicture(nodes, links) {
  if (!nodes.length) return 'Nobody is in the picture yet.';
  const groups = new Map();
  for (const node of nodes) {
    const members = groups.get(node.community ?? null) || [];
    members.push(node);
    groups.set(node.community ?? null, members);
  }
  const largest = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
  const everyone = nodes.length <= EVERYONE;
  const named = (members) => members.sort((a, b) => (b.degree || 0) - (a.degree || 0))
    .slice(0, everyone ? members.length : NAMES).map((node) => node.label).join(', ');
  const parts = largest.slice(0, everyone ? largest.length : GROUPS).map(([community, members]) => {
    const name = community === null ? 'In no group' : `Group ${community + 1}`;
    return `${name}, ${count(members.length, 'person', 'people')}: ${everyone ? '' : 'best connected '}${named(members)}.`;
  });
  const rest = largest.length - parts.length;
  return [
    `${count(nodes.length, 'person', 'people')}, ${count(links, 'link', 'links')}, ${count(groups.size, 'group', 'groups')}.`,
    ...parts,
    rest > 0 ? `And ${count(rest, 'smaller group', 'smaller groups')}.` : '',
  ].filter(Boolean).join(' ');
}
