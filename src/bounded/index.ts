/**
 * Bounded stores: everything a client can make this service keep, in memory (a bound in entries
 * or bytes, least recently used out, optional expiry) or shared (an expiry on every write).
 * Imports nothing of ours, so every layer may keep things through it.
 */
export { BoundedMemory, type BoundedMemoryOptions, type MemoryBound } from './memory.js';
export { InFlight, type InFlightEntry } from './in-flight.js';
export { UnderWay } from './under-way.js';
export { checkTtl, type ExpiringStore, type ExpiringStoreBounds } from './expiring.js';
