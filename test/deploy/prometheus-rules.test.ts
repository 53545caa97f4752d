import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_CODES } from '../../src/observability/outcomes.js';
import { metricNames } from '../helpers/promql.js';
import { PROMETHEUS, RULE_FILES, RULE_TESTS, dashboardQueries, root, rules } from './support.js';
import { needs } from '../helpers/needs.js';
import { freePort } from '../helpers/redis.js';
import { where } from '../helpers/system-programs.js';

/**
 * The Prometheus rules of deploy/prometheus/: valid for promtool, each alert unit-tested firing and
 * not firing, each explained in the runbook, which Prometheus links to from the base URL an
 * operator gives it, and the error ratio counting exactly the server's codes.
 */

/** The external label an operator sets to the URL the repository's files are served under. */
const DOCS_URL_LABEL = 'campaign_bff_docs_url';
/** An alert's runbook_url: its heading of docs/operations.md, under that URL when it is set. */
const runbookUrlTemplate = (alert: string) =>
  `{{ with $externalLabels.${DOCS_URL_LABEL} }}{{ reReplaceAll "/+$" "" . }}/{{ end }}docs/operations.md#${alert.toLowerCase()}`;
describe.skipIf(!needs('promtool'))('promtool', () => {
  it('checks the rule files', () => {
    const run = spawnSync(where('promtool')!, ['check', 'rules', ...RULE_FILES], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).not.toMatch(/FAILED/);
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it('passes the rules\' unit tests', () => {
    const run = spawnSync(where('promtool')!, ['test', 'rules', ...RULE_TESTS], { encoding: 'utf8', cwd: PROMETHEUS });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.match(/SUCCESS/g)).toHaveLength(RULE_TESTS.length);
  });

  it('fails a unit test whose alert does not fire as it expects (the expectations are read)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-rules-'));
    try {
      const broken = readFileSync(join(PROMETHEUS, 'tests/instances.yml'), 'utf8')
        .replace('rule_files: [../recording.yml, ../alerts.yml]', `rule_files: [${RULE_FILES.join(', ')}]`)
        .replace("summary: 'a:9464: resident memory 500MiB'", "summary: 'a:9464: resident memory 1MiB'");
      writeFileSync(join(dir, 'broken.yml'), broken);
      const run = spawnSync(where('promtool')!, ['test', 'rules', join(dir, 'broken.yml')], { encoding: 'utf8' });
      expect(run.status, run.stdout + run.stderr).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/resident memory 500MiB/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!needs('prometheus'))('Prometheus, given the docs URL as an external label', () => {
  it('links each alert to its heading of the runbook under that URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-prometheus-'));
    const base = 'https://git.example.com/ops/campaign-graphql-bff/blob/1.0.0';
    const alerts = rules().filter((r) => r.alert);
    // Each alert's own annotation, on a rule that fires at once: what Prometheus renders is what
    // Alertmanager and Grafana get.
    const firing = { groups: [{ name: 'links', interval: '1s', rules: alerts.map((r) => ({ alert: r.alert, expr: 'vector(1)', annotations: { runbook_url: r.annotations!.runbook_url } })) }] };
    writeFileSync(join(dir, 'rules.yml'), JSON.stringify(firing));
    // A trailing slash, as an operator may write it.
    writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify({ global: { evaluation_interval: '1s', external_labels: { [DOCS_URL_LABEL]: `${base}/` } }, rule_files: [join(dir, 'rules.yml')] }));
    const port = await freePort();
    const server = spawn(where('prometheus')!, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
    try {
      let links: Record<string, string> = {};
      const deadline = Date.now() + 30_000;
      while (Object.keys(links).length < alerts.length) {
        if (Date.now() > deadline) throw new Error(`Prometheus rendered ${Object.keys(links).length} of ${alerts.length} alerts in 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const answer = await fetch(`http://127.0.0.1:${port}/api/v1/alerts`).catch(() => undefined);
        if (!answer?.ok) continue;
        const { data } = (await answer.json()) as { data: { alerts: { labels: { alertname: string }; annotations: { runbook_url: string } }[] } };
        links = Object.fromEntries(data.alerts.map((a) => [a.labels.alertname, a.annotations.runbook_url]));
      }
      expect(links).toEqual(Object.fromEntries(alerts.map((r) => [r.alert, `${base}/docs/operations.md#${r.alert!.toLowerCase()}`])));
    } finally {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the rules', () => {
  const all = rules();
  const alerts = all.filter((r) => r.alert);
  const tests = RULE_TESTS.flatMap((file) => (parse(readFileSync(file, 'utf8')) as { tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[] }).tests)
    .flatMap((t) => t.alert_rule_test ?? []);

  it('has a unit test where each alert fires and one where it does not', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    for (const { alert } of alerts) {
      const cases = tests.filter((t) => t.alertname === alert);
      expect(cases.some((t) => (t.exp_alerts ?? []).length > 0), `${alert} fires in a test`).toBe(true);
      expect(cases.some((t) => (t.exp_alerts ?? []).length === 0), `${alert} stays quiet in a test`).toBe(true);
    }
    expect(tests.filter((t) => !alerts.some((a) => a.alert === t.alertname))).toEqual([]);
  });

  it('gives each alert a severity, a summary, a description and its runbook, which is in one place', () => {
    const runbook = readFileSync(join(root, 'docs/operations.md'), 'utf8');
    const alertsSection = runbook.slice(runbook.indexOf('\n## Alerts\n'), runbook.indexOf('\n## ', runbook.indexOf('\n## Alerts\n') + 1));
    for (const { alert, labels, annotations } of alerts) {
      expect(['critical', 'warning'], alert).toContain(labels?.severity);
      expect(annotations?.summary, alert).toBeTruthy();
      expect(annotations?.description, alert).toBeTruthy();
      expect(annotations?.runbook_url, alert).toBe(runbookUrlTemplate(alert!));
      expect(alertsSection, alert).toMatch(new RegExp(`^### ${alert}\\n\\n${labels!.severity}\\. `, 'm'));
    }
    // The rules' README points there instead of saying it again.
    const readme = readFileSync(join(PROMETHEUS, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/^### CampaignBff/m);
    expect(readme).toContain('](../../docs/operations.md#alerts)');
  });

  it('counts exactly the server\'s error codes, and "other", in the error ratio', () => {
    for (const name of ['job:bff_graphql_server_errors:rate5m', 'job:bff_graphql_server_errors:rate1h']) {
      const rule = all.find((r) => r.record === name)!;
      const regex = /outcome=~"([^"]*)"/.exec(rule.expr)![1]!;
      expect(regex.split('|').sort(), name).toEqual([...SERVER_ERROR_CODES, 'other'].sort());
    }
  });

  it('reads only recording rules that are defined, from alerts and dashboards alike', () => {
    const recorded = new Set(all.flatMap((r) => (r.record ? [r.record] : [])));
    const used = [...all.map((r) => ({ where: r.alert ?? r.record!, expr: r.expr })), ...dashboardQueries()];
    const missing = used.flatMap(({ where, expr }) => [...metricNames(expr)].filter((n) => n.includes(':') && !recorded.has(n)).map((n) => `${where}: ${n}`));
    expect(missing).toEqual([]);
    // Every recording rule is read by something.
    const read = new Set(used.flatMap(({ expr }) => [...metricNames(expr)]));
    expect([...recorded].filter((r) => !read.has(r))).toEqual([]);
  });
});
