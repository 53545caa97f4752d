/**
 * A choice made from a request header (which media type, which coding), remembered for the header
 * values real clients send: they send a few, again and again. Headers come from clients, so the
 * memory is bounded: only short values are kept, and a full memory starts over.
 */
export function rememberedChoices<T>(choose: (header: string) => T): (header: string) => T {
  const chosen = new Map<string, T>();
  return (header) => {
    let found = chosen.get(header);
    if (found === undefined) {
      found = choose(header);
      if (header.length <= 256) {
        if (chosen.size >= 64) chosen.clear();
        chosen.set(header, found);
      }
    }
    return found;
  };
}
