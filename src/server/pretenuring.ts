import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring, on import: every object starts young.
 *
 * V8 watches where objects are allocated. When a young collection runs with the young generation
 * at its largest and 85% or more of the objects from one place in the code are still alive, later
 * objects from that place are allocated straight in the old generation. Under 50 connections that
 * happens to whatever a request holds while it waits: at the moment of such a collection most of
 * them are in flight. It is decided per process, by when the collections fall, and it sticks: the
 * objects then die in the old generation, where only full collections reclaim them, and every store
 * into them pays the old-to-young write barrier. bench/README.md has the measurements: one build
 * served warm `categories` at 19-23 µs a request in some processes and 26-30 µs in others, 4 of 6
 * slow where the floor ran first; with pretenuring off, 19-23 µs in every process.
 *
 * Imported by the process entry before the other modules, which V8 may otherwise judge as they
 * load.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
