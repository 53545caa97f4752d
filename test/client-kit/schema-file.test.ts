import { readFileSync } from 'node:fs';
import { diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, printClientSchema } from '../../scripts/client-schema.js';
import { SNAPSHOT } from '../../scripts/schema-compat.js';

/**
 * client/schema.graphql, the schema the kit publishes for codegen without introspection, is the
 * executable schema as it is now: a change to schema/*.graphql without `npm run client:schema`
 * fails here. It is printed as the release snapshot (compat/schema.graphql) is, so the two are
 * never two copies that drift apart: they differ by the changes made since the release and by
 * nothing else.
 */
const published = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
/** A file's SDL without its leading comment lines (each file says who writes it). */
const sdl = (text: string) => text.replace(/^(#.*\n)+\n?/, '');

describe('the published SDL (client/schema.graphql)', () => {
  it('is the executable schema printed: run `npm run client:schema` when this fails', () => {
    // One assertion on the whole text; the first differing line, for a readable failure.
    const printed = printClientSchema();
    const at = published.split('\n').findIndex((line, i) => line !== printed.split('\n')[i]);
    expect(at === -1 ? undefined : { line: at + 1, published: published.split('\n')[at], printed: printed.split('\n')[at] }, 'client/schema.graphql is stale: run `npm run client:schema`').toBeUndefined();
    expect(published).toBe(printed);
  });

  it('is the text of the release snapshot when nothing changed since the release (one printer, not two copies)', async () => {
    const snapshot = readFileSync(SNAPSHOT, 'utf8');
    // (Printed SDL holds no directive usages, so both sides are compared as printed.)
    const sinceRelease = await diff(buildSchema(snapshot), buildSchema(published));
    // Same printer, same order: a schema unchanged since the release prints the snapshot's text.
    if (sinceRelease.length === 0) expect(sdl(published)).toBe(sdl(snapshot));
    else expect(sdl(published)).not.toBe(sdl(snapshot));
  });
});

describe("the kit's version", () => {
  it('has the major and minor of the last schema release (CHANGELOG.md), the kit and the schema it serves agreeing', () => {
    const kit = JSON.parse(readFileSync(new URL('../../client/package.json', import.meta.url), 'utf8')) as { version: string };
    const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
    const released = /^## (\d+)\.(\d+)\.\d+/m.exec(changelog);
    expect(released).not.toBeNull();
    expect(kit.version.split('.').slice(0, 2)).toEqual([released![1], released![2]]);
  });
});
