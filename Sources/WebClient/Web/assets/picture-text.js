// A constellation in words: the text alternative of a picture's canvas, for whoever does not see
// it (a screen reader reads it after the canvas's name). Who is in it, and in which communities (the
// colours), best connected first; a large picture names its largest communities and their best connected.
import { t, list } from './i18n.js';

/** Up to this many people, everyone is named; above, each community's best connected only. */
const EVERYONE = 30;
/** A large picture describes this many of its largest communities, naming this many people in each. */
const GROUPS = 8;
const NAMES = 5;

/** `nodes` ({label, community, degree}) and the number of links between them, in a few sentences. */
export function describePicture(nodes, links) {
  if (!nodes.length) return t('picture.empty');
  const groups = new Map();
  for (const node of nodes) {
    const members = groups.get(node.community ?? null) || [];
    members.push(node);
    groups.set(node.community ?? null, members);
  }
  const largest = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
  const everyone = nodes.length <= EVERYONE;
  // People shown without a name (a wall's, who did not choose to be named on it) are counted, not listed.
  const named = (members) => {
    const shown = members.sort((a, b) => (b.degree || 0) - (a.degree || 0)).slice(0, everyone ? members.length : NAMES);
    const names = shown.map((node) => node.label).filter(Boolean);
    const unnamed = shown.length - names.length;
    return list([...names, ...(unnamed ? [t('count.unnamed', { count: unnamed })] : [])]);
  };
  const parts = largest.slice(0, everyone ? largest.length : GROUPS).map(([community, members]) => {
    const name = community === null ? t('picture.noCommunity') : t('picture.community', { number: community + 1 });
    const people = t('count.people', { count: members.length });
    return t(everyone ? 'picture.members' : 'picture.bestConnected', { community: name, people, names: named(members) });
  });
  const rest = largest.length - parts.length;
  return [
    t('picture.summary', {
      people: t('count.people', { count: nodes.length }), links: t('count.links', { count: links }), communities: t('count.communities', { count: groups.size }),
    }),
    ...parts,
    rest > 0 ? t('picture.rest', { communities: t('count.smallerCommunities', { count: rest }) }) : '',
  ].filter(Boolean).join(' ');
}
