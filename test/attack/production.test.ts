import { describe } from 'vitest';
import { attackSuite } from './suite.js';

/**
 * The attack suite against the built entry in production (NODE_ENV=production, a campaign API of
 * its own, app keys from a file running only the trusted documents): see suite.ts.
 */
describe('hostile inputs over every transport, as every caller (production)', () => attackSuite('production'));
