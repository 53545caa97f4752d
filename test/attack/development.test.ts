import { describe } from 'vitest';
import { attackSuite } from './suite.js';

/**
 * The attack suite against the built entry as `npm start` runs it in development: the embedded
 * emulator, the demo fallback (a caller presenting nothing acts as the demo store) and
 * `demo-app-key`, which runs any document there. Sent by the callers development treats
 * otherwise than production (nobody, an app key) and by the hostile tokens, none of which may act
 * as the demo partner: an app key in `connection_init` is refused as its header would be.
 */
describe('hostile inputs over every transport, as every caller (development)', () =>
  attackSuite('development', { callers: (caller) => !['a made-up app key', 'a partner token', 'a made-up token'].includes(caller.name) }));
