/**
 * The metric names a PromQL expression reads (Grafana's variables allowed in it): identifiers that
 * name a series, as opposed to functions, aggregations, keywords, label names (in `{...}`, `by
 * (...)`, `on (...)`, ...), durations and numbers. Small on purpose: enough for the expressions of
 * deploy/prometheus/ and deploy/grafana/, and strict where it is unsure (it never drops an identifier
 * it does not know to be something other than a metric).
 */

const KEYWORDS = new Set([
  // Binary operators and modifiers.
  'and', 'or', 'unless', 'bool', 'offset', 'atan2',
  // Aggregations, which may be followed by `by`/`without` rather than `(`.
  'sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile', 'limitk', 'limit_ratio',
  // Literals.
  'inf', 'nan', 'Inf', 'NaN',
]);
/** Keywords followed by a parenthesised list of label names. */
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

const IDENTIFIER = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const NUMBER = /(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)/y;

export function metricNames(expression: string): Set<string> {
  const names = new Set<string>();
  const text = expression
    // Strings (label values, regexes, label_replace's arguments) and comments hold no metric names.
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/#[^\n]*/g, '')
    // Grafana's variables: $var, ${var}, ${var:format}, [[var]].
    .replace(/\$\{[^}]*\}|\$[a-zA-Z_][a-zA-Z0-9_]*|\[\[[^\]]*\]\]/g, ' 1 ')
    // Label matchers and range/subquery durations.
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  let at = 0;
  while (at < text.length) {
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    // A number, with a duration's unit or an exponent's letters, is no name (`5m` in `offset 5m`).
    if (number && !/[a-zA-Z_:]/.test(text[at - 1] ?? '')) {
      at = NUMBER.lastIndex;
      while (/[a-zA-Z]/.test(text[at] ?? '')) at++;
      continue;
    }
    IDENTIFIER.lastIndex = at;
    const identifier = IDENTIFIER.exec(text);
    if (!identifier) {
      at++;
      continue;
    }
    at = IDENTIFIER.lastIndex;
    const word = identifier[0];
    const rest = text.slice(at).trimStart();
    if (LABEL_LISTS.has(word)) {
      // Skip its label list, when it has one (group_left may stand alone).
      if (rest.startsWith('(')) at = text.indexOf(')', text.indexOf('(', at)) + 1;
      continue;
    }
    if (KEYWORDS.has(word)) continue;
    // A function call.
    if (rest.startsWith('(')) continue;
    names.add(word);
  }
  return names;
}

/** A histogram's series name without its `_bucket`, `_sum` or `_count` (the name itself otherwise). */
export function familyOf(name: string, histograms: ReadonlySet<string>): string {
  const match = /^(.*)_(?:bucket|sum|count)$/.exec(name);
  return match && histograms.has(match[1]!) ? match[1]! : name;
}
