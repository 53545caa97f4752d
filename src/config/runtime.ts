import { flag, int, section } from './setting.js';

export const runtime = section({
  title: 'Runtime',
  about:
    'How the process runs the work it is given: the compiled path for operations seen before, admission under overload, and the V8 settings that measured worth a switch ([ADRs](adr/) hold the figures). Every one is on by default; each turns off alone.',
  shape: {
    COMPILED_OPERATIONS: flag(true, {
      description:
        'A document runs on Apollo Server the first time and compiled from then on, without Apollo\'s per-request pipeline (see [Architecture](architecture.md#the-one-path-a-request-takes) and [the figures](adr/compiled-operations.md)); `false`: Apollo runs every execution. Answers the response cache remembers are sent either way.',
    }),
    GRAPHQL_JIT: flag(true, { description: 'That path executes with graphql-jit (the operation compiled to a plain function) instead of graphql-js.' }),
    ADMISSION_CONTROL: flag(true, {
      description:
        "While the event loop is saturated, only a few requests at a time start backend work and the others wait their turn, so requests finish one after another instead of all holding their half-done state together (requests answered from the BFF's caches never wait; the limit follows the loop's utilisation between 8 and 1024, where it rests when the process is not saturated; gauges `bff_admission_limit`, `bff_admission_active`, `bff_admission_waiting`).",
    }),
    HTTP_WARM_UP: flag(true, {
      description:
        "Once listening, the server sends its own `/healthz` a few requests, one after another, before it starts: V8 settles the layout of Node's request and response objects on the first requests a server serves, and settled by a burst of them (a load balancer's connections opening at once) it can leave every later request's objects in a slow layout for the life of the process (see [the figures](adr/http-warm-up.md)). No request line, no backend call.",
    }),
    HEAP_GROWTH_PERCENT: int(0, 300, 100, {
      description:
        "How far V8 lets the old generation grow past what the last full collection kept before it collects again (100: to twice the live size; 0: V8's own choice, up to four times); not a cap, the heap still follows the live data (see [Memory](operations.md#memory) and [the figures](adr/heap-growth.md)).",
    }),
  },
  build: (e) => ({
    /** Operations Apollo accepted before run without its per-request pipeline. */
    compiledOperations: e.COMPILED_OPERATIONS,
    /** The compiled path executes with graphql-jit rather than graphql-js. */
    graphqlJit: e.GRAPHQL_JIT,
    /** While the event loop is saturated, only a few requests at a time start backend work (server/admission.ts). */
    admissionControl: e.ADMISSION_CONTROL,
    /**
     * How far V8 lets the old generation grow past what the last full collection kept, in percent;
     * 0 leaves V8's own choice (up to 4x). Applied once at start-up by server/heap-growth.ts.
     */
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT,
    /** The listener serves its own /healthz a few times before the service starts (server/warm-up.ts). */
    httpWarmUp: e.HTTP_WARM_UP,
  }),
});
