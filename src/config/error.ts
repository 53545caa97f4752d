import { redactCredentials } from '../observability/failures.js';

/** A start-up setting that cannot be used: each problem names the variable, the value received and what is allowed. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    // Start-up errors end up in logs: a URL's credentials are never in them, whoever wrote the problem.
    const shown = problems.map(redactCredentials);
    // One problem, one line; several, one line each.
    super(shown.length === 1 ? `invalid configuration: ${shown[0]}` : `invalid configuration:\n  ${shown.join('\n  ')}`);
    this.problems = shown;
    this.name = 'ConfigError';
  }
}
