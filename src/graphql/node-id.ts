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

export function encodeNodeId(type: string, key: string | number): string {
  return Buffer.from(`${type}:${key}`, 'utf8').toString('base64url');
}

/**
 * The type and key an id names, or null when it is no id this encoding made. Only the canonical
 * spelling is read (the one `encodeNodeId` writes), so one object has exactly one id.
 */
export function decodeNodeId(id: string): NodeKey | null {
  if (!ENCODED.test(id)) return null;
  const text = Buffer.from(id, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const type = text.slice(0, colon);
  const key = text.slice(colon + 1);
  if (!TYPE.test(type) || !KEY.test(key)) return null;
  return Buffer.from(text, 'utf8').toString('base64url') === id ? { type, key } : null;
}
