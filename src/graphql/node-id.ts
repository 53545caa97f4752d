import { BoundedMemory } from '../bounded/index.js';

/**
 * Global object ids (the `Node` interface): the type name and the object's key, written
 * `<Type>:<key>` and encoded base64url without padding, so an id names its type on its own and
 * `node(id:)` can find the object from the id alone. Clients treat ids as opaque strings: the
 * encoding keeps them from reading meaning into them (the numbers are readable in fields of
 * their own), and base64url keeps them safe in a URL path.
 */

export interface NodeKey {
  type: string;
  key: string;
}

const TYPE = /^[A-Z][A-Za-z0-9]{0,63}$/;
const KEY = /^[^\s:]{1,64}$/;
/** base64url of at most `TYPE:KEY`: longer input is no id of this API, and is not decoded. */
const ENCODED = /^[A-Za-z0-9_-]{1,180}$/;

/**
 * Ids made and read lately. A list carries an id per item, and a list of ids as an argument one
 * per id: encoding and reading them (a buffer, a string, a second encoding to check the spelling)
 * was a large share of such a request. Made ids are the server's own, by type; read ones come from
 * clients, and a memory of them is bounded like any other.
 */
const MADE_PER_TYPE = 20_000;
const READ = 20_000;
// bounded: one memory per type of node, a type the schema names.
const made = new Map<string, BoundedMemory<string | number, string>>();
const read = new BoundedMemory<string, Readonly<NodeKey>>({ maxEntries: READ });

export function encodeNodeId(type: string, key: string | number): string {
  let ofType = made.get(type);
  if (!ofType) made.set(type, (ofType = new BoundedMemory<string | number, string>({ maxEntries: MADE_PER_TYPE })));
  let id = ofType.get(key);
  if (id === undefined) ofType.set(key, (id = Buffer.from(`${type}:${key}`, 'utf8').toString('base64url')));
  return id;
}

/**
 * The type and key an id names, or null when it is no id this encoding made. Only the canonical
 * spelling is read (the one `encodeNodeId` writes), so one object has exactly one id.
 */
export function decodeNodeId(id: string): Readonly<NodeKey> | null {
  const known = read.get(id);
  if (known) return known;
  const node = readNodeId(id);
  // Only the spelling of an id this encoding made is worth keeping; other text is read each time.
  if (node) read.set(id, node);
  return node;
}

function readNodeId(id: string): NodeKey | null {
  if (!ENCODED.test(id)) return null;
  const text = Buffer.from(id, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const type = text.slice(0, colon);
  const key = text.slice(colon + 1);
  if (!TYPE.test(type) || !KEY.test(key)) return null;
  return Buffer.from(text, 'utf8').toString('base64url') === id ? { type, key } : null;
}
