import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docOf, REFERENCE_FILE, renderConfigurationReference } from '../../scripts/config-docs.js';
import { envSchema, SECTIONS } from '../../src/config.js';

describe('the configuration reference (docs/configuration.md)', () => {
  it('is what the schema renders: run `npm run config:docs` after changing a variable', () => {
    const written = readFileSync(REFERENCE_FILE, 'utf8');
    expect(written === renderConfigurationReference(), 'docs/configuration.md is stale: run `npm run config:docs` and commit it').toBe(true);
  });

  it('describes every variable, each in one section', () => {
    const names = SECTIONS.flatMap((section) => Object.keys(section.shape));
    expect(names).toEqual(Object.keys(envSchema.shape));
    expect(new Set(names).size).toBe(names.length);
    for (const [name, schema] of Object.entries(envSchema.shape)) expect(docOf(name, schema).description.length, name).toBeGreaterThan(10);
    for (const name of names.filter((n) => !docOf(n, envSchema.shape[n as keyof typeof envSchema.shape]).sdk)) {
      expect(renderConfigurationReference()).toContain(`| \`${name}\` |`);
    }
  });

  it('gives the default the schema applies, where the schema has one', () => {
    let checked = 0;
    for (const [name, schema] of Object.entries(envSchema.shape)) {
      const applied = schema.safeParse(undefined);
      const documented = docOf(name, schema).default;
      if (!applied.success || applied.data === undefined || documented === undefined || /\s/.test(documented)) continue;
      expect(String(applied.data), name).toBe(documented);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('never documents a secret by example', () => {
    for (const [name, schema] of Object.entries(envSchema.shape)) {
      const doc = docOf(name, schema);
      if (doc.secret) expect(doc.example, name).toBeUndefined();
    }
  });
});
