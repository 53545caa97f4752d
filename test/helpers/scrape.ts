/** One sample of a Prometheus text exposition: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a text exposition (comments left out; label values unescaped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line.slice(0, 120)}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = raw!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** GETs a `/metrics` and parses it. */
export async function scrape(metricsUrl: string): Promise<Sample[]> {
  const answer = await fetch(metricsUrl);
  if (answer.status !== 200) throw new Error(`${metricsUrl} answered ${answer.status}`);
  return parseExposition(await answer.text());
}

/** The distinct values one label takes across a metric's samples. */
export function labelValues(samples: Sample[], name: string, label: string): Set<string> {
  return new Set(samples.filter((s) => s.name === name && label in s.labels).map((s) => s.labels[label]!));
}
