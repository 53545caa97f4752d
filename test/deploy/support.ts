import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser, type Copy } from 'dockerfile-ast';
import { parse } from 'yaml';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const PROMETHEUS = join(root, 'deploy/prometheus');
export const RULE_FILES = ['recording.yml', 'alerts.yml'].map((file) => join(PROMETHEUS, file));
export const RULE_TESTS = readdirSync(join(PROMETHEUS, 'tests'))
  .filter((file) => file.endsWith('.yml'))
  .map((file) => join(PROMETHEUS, 'tests', file));
export const DASHBOARDS = existsSync(join(root, 'deploy/grafana'))
  ? readdirSync(join(root, 'deploy/grafana'))
      .filter((file) => file.endsWith('.json'))
      .map((file) => join(root, 'deploy/grafana', file))
  : [];

/**
 * What the image's last stage copies from an earlier stage, as paths under the build stage's
 * WORKDIR (`dist/src`), with where each goes under its own: the built service it ships.
 */
export function runtimeCopiesFromBuild(): { from: string; to: string }[] {
  const dockerfile = DockerfileParser.parse(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  const instructions = dockerfile.getInstructions();
  const lastFrom = instructions.findLastIndex((i) => i.getKeyword() === 'FROM');
  return instructions
    .slice(lastFrom)
    .filter((i) => i.getKeyword() === 'COPY' && (i as Copy).getFlags().some((flag) => flag.getName() === 'from'))
    .map((i) => {
      const [source, target] = i.getArguments().map((a) => a.getValue());
      return { from: relative('/app', source!), to: relative('.', target!) };
    });
}

/** How long the export of buffered spans may take at shutdown (src/tracing/sdk.ts's default). */
export const TRACING_FLUSH_MS = 5000;
/** Room past the shutdown the configuration asks for: closing Redis, the backend pool, the metrics listener. */
export const SHUTDOWN_MARGIN_MS = 3000;

export interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function rules(): Rule[] {
  return RULE_FILES.flatMap((file) => (parse(readFileSync(file, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules));
}

/** Every PromQL expression of the dashboards' panels and variables, with where it is. */
export function dashboardQueries(): { where: string; expr: string }[] {
  const queries: { where: string; expr: string }[] = [];
  for (const file of DASHBOARDS) {
    const dashboard = JSON.parse(readFileSync(file, 'utf8')) as Dashboard;
    const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
    const name = file.slice(root.length);
    for (const panel of panels) for (const target of panel.targets ?? []) queries.push({ where: `${name}: panel "${panel.title}" ${target.refId}`, expr: target.expr });
    for (const variable of dashboard.templating.list) {
      if (variable.type !== 'query') continue;
      const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
      // label_values(metric, label) and query_result(expr) name a metric as PromQL does.
      const inner = /^(?:label_values|query_result)\((.*)\)$/s.exec(query)?.[1] ?? query;
      const expr = query.startsWith('label_values(') ? inner.replace(/,\s*[a-zA-Z_]\w*\s*$/, '') : inner;
      queries.push({ where: `${name}: variable ${variable.name}`, expr });
    }
  }
  return queries;
}

export interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: { refId: string; expr: string; datasource?: { type: string; uid: string } }[];
  panels?: Panel[];
  gridPos: { x: number; y: number; w: number; h: number };
}

export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: string | { query: string }; datasource?: { type: string; uid: string } }[] };
}
