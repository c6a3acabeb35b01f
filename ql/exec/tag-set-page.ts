/**
 * SLIMIT/SOFFSET over the tag sets of one measurement as 1.6.7 pages them: as [soffset,
 * soffset + slimit) (SOFFSET without SLIMIT keeps none) of the index's tag-set order, whose key
 * lists only the dimensions a series has, sorted by name (tsdb MakeTagsKey: `host|iface|server01|eth0`, and
 * `iface|eth0` for a series without host), so such a series sorts by the tags it has. The page
 * keeps the answer's own order (the tag values, an empty value first).
 */
export function pageTagSets<G extends { readonly key: readonly string[] }>(groups: readonly G[], dims: readonly string[], slimit: number, soffset: number): G[] {
  if (slimit === 0 && soffset === 0) return [...groups];
  if (slimit === 0) return [];
  const kept = new Set(pagingOrder(groups, dims).slice(soffset, soffset + slimit));
  return groups.filter((g) => kept.has(g));
}

/** `groups` in the index's tag-set order, the order SLIMIT/SOFFSET count in. */
export function pagingOrder<G extends { readonly key: readonly string[] }>(groups: readonly G[], dims: readonly string[]): G[] {
  const indexKey = (g: G): string => {
    const present = dims.flatMap((d, i) => (g.key[i] === '' ? [] : [i])).sort((a, b) => (dims[a]! < dims[b]! ? -1 : dims[a]! > dims[b]! ? 1 : 0));
    return [...present.map((i) => dims[i]!), ...present.map((i) => g.key[i]!)].join('|');
  };
  const keyed = groups.map((g) => ({ g, k: indexKey(g) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.g);
}
