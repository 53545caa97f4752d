import { BoundedMemory } from '../bounded/index.js';

/**
 * A choice made from a request header (which media type, which coding), remembered for the header
 * values real clients send: they send a few, again and again. Headers come from clients, so the
 * memory is bounded: only short values are kept, the least recently used going first.
 */
export function rememberedChoices<T extends {}>(choose: (header: string) => T): (header: string) => T {
  const chosen = new BoundedMemory<string, T>({ maxEntries: 64 });
  return (header) => chosen.remember(header, () => choose(header), header.length <= 256);
}
