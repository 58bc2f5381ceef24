import { didYouMean } from '../contract/did-you-mean.js';

/** A mistake in cdk.json or in a ContractGate's props: the message says what to fix, so no stack trace is needed. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads one object of cdk.json context and collects every problem instead of stopping at the
 * first, so whoever edits cdk.json fixes them all in one pass.
 */
export class ConfigFields {
  readonly problems: string[] = [];

  constructor(private readonly where: string) {}

  /** The object at `path`, its keys checked against `known`; undefined (and a problem) if it is not an object. */
  object(value: unknown, path: string, known: readonly string[]): Record<string, unknown> | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem(path, `expected an object, got ${show(value)}`);
      return undefined;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record).filter((k) => !known.includes(k))) {
      const hint = didYouMean(key, known);
      this.problem(join(path, key), `unknown key${hint ? ` (did you mean "${hint}"?)` : ''}; known keys: ${known.join(', ')}`);
    }
    return record;
  }

  integer(value: unknown, path: string, fallback: number, min: number, max: number): number {
    if (value === undefined) return fallback;
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    this.problem(path, `expected an integer from ${min} to ${max}, got ${show(value)}`);
    return fallback;
  }

  boolean(value: unknown, path: string, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    this.problem(path, `expected true or false, got ${show(value)}`);
    return fallback;
  }

  oneOf(value: unknown, path: string, fallback: number, allowed: readonly number[]): number {
    if (value === undefined) return fallback;
    if (typeof value === 'number' && allowed.includes(value)) return value;
    this.problem(path, `expected one of ${allowed.join(', ')}, got ${show(value)}`);
    return fallback;
  }

  choice<T extends string>(value: unknown, path: string, fallback: T, allowed: readonly T[]): T {
    if (value === undefined) return fallback;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    this.problem(path, `expected one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${show(value)}`);
    return fallback;
  }

  string(value: unknown, path: string, fallback: string, pattern: RegExp, expected: string): string {
    if (value === undefined) return fallback;
    if (typeof value === 'string' && pattern.test(value)) return value;
    this.problem(path, `expected ${expected}, got ${show(value)}`);
    return fallback;
  }

  strings(value: unknown, path: string, pattern: RegExp, expected: string): string[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      this.problem(path, `expected a list of ${expected}, got ${show(value)}`);
      return [];
    }
    return value.filter((item, i) => {
      const ok = typeof item === 'string' && pattern.test(item);
      if (!ok) this.problem(`${path}[${i}]`, `expected ${expected}, got ${show(item)}`);
      return ok;
    }) as string[];
  }

  problem(path: string, message: string): void {
    this.problems.push(`${path}: ${message}`);
  }

  /** Throws one error naming every problem. */
  check(): void {
    if (this.problems.length === 0) return;
    throw new ConfigError(`${this.where} is invalid:\n${this.problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}
