import { describe, expect, it } from 'vitest';
import { placeOf, splitByStage } from '../../bench/stages/attribution.js';
import type { CpuProfile } from '../../bench/stages/inspector.js';

const built = (path: string) => `file:///srv/app/dist/${path}`;

/**
 * A profile as V8 writes it: a call tree, and one sample every 10 µs naming the node it hit (each
 * sample's time is the delta to the next one, so the last is a zero-length idle sample).
 */
function profile(tree: [id: number, parent: number | null, functionName: string, url: string][], hits: number[]): CpuProfile {
  const nodes = tree.map(([id, , functionName, url]) => ({ id, callFrame: { functionName, url, lineNumber: 0 }, children: tree.filter(([, parent]) => parent === id).map(([child]) => child) }));
  const samples = [...hits, 3];
  return { nodes, samples, timeDeltas: samples.map(() => 10), startTime: 0, endTime: samples.length * 10 };
}

describe('the CPU split by stage of the warm query', () => {
  it("names a frame's place: the product's modules by their source path, packages by name, Node's modules, native code", () => {
    expect(placeOf(built('src/http/body.js'))).toBe('src/http/body.ts');
    expect(placeOf('file:///repo/src/pipeline/pipeline.ts')).toBe('src/pipeline/pipeline.ts');
    expect(placeOf('file:///repo/node_modules/@graphql-hive/gateway/dist/bin.js')).toBe('@graphql-hive/gateway');
    expect(placeOf('file:///repo/node_modules/fastify/node_modules/pino/pino.js')).toBe('pino');
    expect(placeOf('node:_http_server')).toBe('node:_http_server');
    expect(placeOf('')).toBe('(native)');
  });

  it('gives each sample to the innermost frame a stage claims, system calls to the stage that made them, and says what "other" was', () => {
    const split = splitByStage(
      profile(
        [
          [1, null, '(root)', ''],
          [2, 1, '(program)', ''],
          [3, 1, '(idle)', ''],
          [4, 1, '(garbage collector)', ''],
          [5, 1, 'parserOnIncoming', 'node:_http_server'],
          [6, 5, 'route', built('src/server/http.js')],
          [7, 6, 'handle', built('src/server/graphql-handler.js')],
          [8, 7, 'write', built('src/server/graphql-handler.js')],
          [9, 8, 'end', 'node:_http_outgoing'],
          [10, 9, 'writev', ''],
          [11, 7, 'paramsFrom', built('src/server/graphql-handler.js')],
          [12, 11, 'parseJsonBody', built('src/http/body.js')],
          [13, 12, 'parse', ''],
          [14, 7, 'recordUnexecuted', built('src/server/bff.js')],
          [15, 14, 'write', 'file:///srv/app/node_modules/sonic-boom/index.js'],
          [16, 15, 'writeString', ''],
          [17, 7, 'tokenKey', built('src/server/answering.js')],
          [18, 17, 'digest', 'node:internal/crypto/hash'],
          [19, 1, 'emit', 'node:events'],
          [20, 5, 'IncomingMessage', 'node:_http_incoming'],
        ],
        [10, 10, 10, 9, 13, 13, 16, 18, 7, 2, 2, 4, 19, 20, 3],
      ),
    );
    expect(split.byStage).toEqual({
      'HTTP parse': 10,
      'body read': 20,
      'caller and token': 10,
      policies: 0,
      'cache key and lookup': 0,
      write: 40,
      'request log line': 10,
      'garbage collection': 10,
      other: 40,
    });
    expect(split.busyUs).toBe(140);
    expect(split.systemCalls.write).toBe(30);
    expect(split.systemCalls['request log line']).toBe(10);
    expect(split.otherParts).toEqual([
      { what: 'V8 and native code outside any script ((program))', us: 20 },
      { what: "the GraphQL handler's own code", us: 10 },
      { what: 'emit (node:events)', us: 10 },
    ]);
  });
});
