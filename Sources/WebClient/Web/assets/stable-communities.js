// Community colours that stay put while an event grows. Each picture numbers its communities
// afresh, so a group that stays together could change colour on every refresh. A new picture's
// community takes the number (and so the colour) of the earlier community it shares the most
// members with, biggest overlaps first, each number once; a community with nobody from before
// takes the lowest number no one has.

export class StableCommunities {
  constructor() {
    /** The number each node was last shown with, by node id. */
    this.numberOf = new Map();
  }

  /** `nodes` (with `id` and `community`) with each community renumbered to stay as it was. */
  relabel(nodes) {
    const overlaps = new Map(); // `${community} ${number}` → shared members
    const sizes = new Map();
    for (const node of nodes) {
      if (node.community == null) continue;
      sizes.set(node.community, (sizes.get(node.community) || 0) + 1);
      const before = this.numberOf.get(node.id);
      if (before == null) continue;
      const key = `${node.community} ${before}`;
      overlaps.set(key, (overlaps.get(key) || 0) + 1);
    }
    const assigned = new Map();
    const taken = new Set();
    const byOverlap = [...overlaps].map(([key, shared]) => [...key.split(' ').map(Number), shared])
      .sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
    for (const [community, number] of byOverlap) {
      if (assigned.has(community) || taken.has(number)) continue;
      assigned.set(community, number);
      taken.add(number);
    }
    let next = 0;
    const rest = [...sizes.keys()].filter((community) => !assigned.has(community))
      .sort((a, b) => sizes.get(b) - sizes.get(a) || a - b);
    for (const community of rest) {
      while (taken.has(next)) next += 1;
      assigned.set(community, next);
      taken.add(next);
    }
    this.numberOf = new Map();
    return nodes.map((node) => {
      if (node.community == null) return node;
      const number = assigned.get(node.community);
      this.numberOf.set(node.id, number);
      return { ...node, community: number };
    });
  }
}
