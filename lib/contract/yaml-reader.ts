import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, type Document, type Node, type YAMLError } from 'yaml';
import { didYouMean } from './did-you-mean.js';
import type { ContractProblem, ProblemCode } from './problems.js';
import { checkYamlBudget } from './yaml-budget.js';
import { inspectDocument } from './yaml-structure.js';

/** Aliases are the lever of YAML bombs; a contract needs a handful at most. */
export const MAX_ALIASES = 16;
/** Contracts are reviewed by people; anything larger is a mistake or an attack. */
export const MAX_CONTRACT_BYTES = 512 * 1024;
/** YAML errors reported per file; the rest are summed up in one more problem. */
export const MAX_YAML_ERRORS = 50;

export type Entries = Map<string, { key: Node; value: Node | null }>;

/** Says how to write a key of another contract format natively, or nothing for a plain unknown key. */
export type ForeignKeyHint = (key: string, value: Node | null) => string | undefined;

/**
 * Reads a YAML document node by node, recording a positioned problem for every surprise and
 * returning undefined for the value in question, so the caller can go on and find the next one.
 */
export class YamlReader {
  readonly problems: ContractProblem[] = [];
  readonly root: Node | null;
  private readonly lines = new LineCounter();
  private readonly doc: Document | undefined;

  constructor(private readonly text: string, readonly file: string) {
    this.doc = this.parse();
    this.root = this.doc ? (this.doc.contents as Node | null) : null;
  }

  /**
   * Checks the cheap bounds before yaml builds anything, then composes the document and checks it
   * whole. Returns undefined when the document is not usable, after reporting why.
   */
  private parse(): Document | undefined {
    // A UTF-8 character is at most 3 bytes per UTF-16 unit: skip encoding text that is surely small.
    const bytes = this.text.length * 3 <= MAX_CONTRACT_BYTES ? this.text.length : new TextEncoder().encode(this.text).byteLength;
    if (bytes > MAX_CONTRACT_BYTES) {
      this.lines.addNewLine(0); // nothing was parsed: without a first line, positions would be 0:0
      this.report('too_large', '', null, `the file is ${bytes} bytes; a contract may be at most ${MAX_CONTRACT_BYTES}`);
      return undefined;
    }
    const overBudget = checkYamlBudget(this.text);
    if (overBudget) {
      countLines(this.text, overBudget.offset, this.lines);
      this.reportAt(overBudget.code, '', overBudget.offset, overBudget.message);
      return undefined;
    }
    const doc = composeQuietly(this.text, this.lines);
    this.reportYamlErrors([...doc.errors, ...doc.warnings]);
    const { aliases, repeatedKeys } = inspectDocument(doc);
    for (const key of repeatedKeys) this.report('duplicate_key', '', key, 'Map keys must be unique');
    if (aliases > MAX_ALIASES) {
      this.report('too_many_aliases', '', null, `the file uses ${aliases} aliases; at most ${MAX_ALIASES} are allowed`);
    }
    return doc.errors.length === 0 && repeatedKeys.length === 0 && aliases <= MAX_ALIASES ? doc : undefined;
  }

  /** The first MAX_YAML_ERRORS of them: a broken file can have one per token, and the first few say what is wrong. */
  private reportYamlErrors(errors: readonly YAMLError[]): void {
    for (const error of errors.slice(0, MAX_YAML_ERRORS)) {
      this.reportAt('yaml_syntax', '', error.pos[0], error.message.split('\n')[0] ?? error.message);
    }
    const more = errors[MAX_YAML_ERRORS];
    if (more) this.reportAt('yaml_syntax', '', more.pos[0], `and ${errors.length - MAX_YAML_ERRORS} more YAML errors from here on`);
  }

  get hasErrors(): boolean {
    return this.problems.some((p) => p.severity === 'error');
  }

  report(code: ProblemCode, path: string, node: Node | null | undefined, message: string, severity: 'error' | 'warning' = 'error'): void {
    this.reportAt(code, path, node?.range?.[0] ?? 0, message, severity);
  }

  private reportAt(code: ProblemCode, path: string, offset: number, message: string, severity: 'error' | 'warning' = 'error'): void {
    const { line, col } = this.lines.linePos(Math.min(offset, this.text.length));
    this.problems.push({ code, severity, message, file: this.file, line, column: col, path });
  }

  /** Follows an alias to the node it names. */
  resolve(node: Node | null | undefined): Node | null {
    if (node && isAlias(node) && this.doc) return (node.resolve(this.doc) as Node | undefined) ?? null;
    return node ?? null;
  }

  /**
   * A mapping with known keys: unknown ones are reported with a suggestion — from `foreign` first,
   * which knows the keys other contract formats use for the same rule (`nullable: false`).
   */
  map(node: Node | null, path: string, known: readonly string[], foreign?: ForeignKeyHint): Entries | undefined {
    const resolved = this.resolve(node);
    if (!resolved || !isMap(resolved)) {
      this.report('wrong_type', path, resolved, `expected a mapping${path ? '' : ' at the top of the file'}, found ${describeNode(resolved)}`);
      return undefined;
    }
    const entries: Entries = new Map();
    for (const pair of resolved.items) {
      const keyNode = pair.key as Node;
      const key = isScalar(keyNode) ? String(keyNode.value) : undefined;
      if (key === undefined) {
        this.report('wrong_type', path, keyNode, 'expected a plain key');
        continue;
      }
      if (!known.includes(key)) {
        const hint = didYouMean(key, known);
        const mapped = foreign?.(key, this.resolve(pair.value as Node | null));
        const expected = mapped ?? (/^\s*\d+\s*\)$/.test(key)
          ? 'it looks like the rest of a decimal(p,s) type that a { } mapping split at the comma: quote the type, e.g. type: "decimal(12,2)"'
          : hint ? `did you mean "${hint}"?` : `expected one of: ${known.join(', ')}`);
        this.report('unknown_key', join(path, key), keyNode, `unknown key "${key}"; ${expected}`);
        continue;
      }
      entries.set(key, { key: keyNode, value: this.resolve(pair.value as Node | null) ?? emptyValueAfter(keyNode) });
    }
    return entries;
  }

  /** The value under `key`, reporting it as missing when `required`. */
  field(entries: Entries, parent: Node | null, path: string, key: string, required = false): Node | null | undefined {
    const entry = entries.get(key);
    if (entry) return entry.value;
    if (required) this.report('missing_key', join(path, key), parent, `missing required key "${key}"`);
    return undefined;
  }

  scalar(node: Node | null, path: string): unknown {
    const resolved = this.resolve(node);
    if (resolved && isScalar(resolved)) return resolved.value;
    this.report('wrong_type', path, resolved, `expected a single value, found ${describeNode(resolved)}`);
    return undefined;
  }

  string(node: Node | null, path: string, what = 'a string'): string | undefined {
    const value = this.scalar(node, path);
    if (typeof value === 'string' && value.length > 0) return value;
    if (value !== undefined) this.report('wrong_type', path, node, `expected ${what}, found ${describeValue(value)}`);
    return undefined;
  }

  number(node: Node | null, path: string, options: { integer?: boolean; min?: number } = {}): number | undefined {
    const value = this.scalar(node, path);
    const what = options.integer ? 'a whole number' : 'a number';
    if (typeof value !== 'number' || !Number.isFinite(value) || (options.integer && !Number.isInteger(value))) {
      if (value !== undefined) this.report('wrong_type', path, node, `expected ${what}, found ${describeValue(value)}`);
      return undefined;
    }
    if (options.min !== undefined && value < options.min) {
      this.report('invalid_value', path, node, `expected ${what} of at least ${options.min}, found ${value}`);
      return undefined;
    }
    return value;
  }

  boolean(node: Node | null, path: string): boolean | undefined {
    const value = this.scalar(node, path);
    if (typeof value === 'boolean') return value;
    if (value !== undefined) this.report('wrong_type', path, node, `expected true or false, found ${describeValue(value)}`);
    return undefined;
  }

  oneOf<T extends string>(node: Node | null, path: string, options: readonly T[]): T | undefined {
    const value = this.scalar(node, path);
    const match = options.find((option) => option === value);
    if (match !== undefined) return match;
    if (value !== undefined) {
      const hint = typeof value === 'string' ? didYouMean(value, options) : undefined;
      const suffix = hint ? `; did you mean "${hint}"?` : '';
      this.report('invalid_value', path, node, `expected one of ${options.join(', ')}, found ${describeValue(value)}${suffix}`);
    }
    return undefined;
  }

  /** The items of a sequence, each resolved, or undefined after reporting a non-sequence. */
  items(node: Node | null, path: string): (Node | null)[] | undefined {
    const resolved = this.resolve(node);
    if (resolved && isSeq(resolved)) return resolved.items.map((item) => this.resolve(item as Node | null));
    this.report('wrong_type', path, resolved, `expected a list, found ${describeNode(resolved)}`);
    return undefined;
  }

  stringList(node: Node | null, path: string): string[] | undefined {
    const items = this.items(node, path);
    if (!items) return undefined;
    const values = items.map((item, i) => this.string(item, `${path}[${i}]`));
    return values.every((v) => v !== undefined) ? (values as string[]) : undefined;
  }
}

export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** A key without a value (`{ team }`) has no value node; this stands in for it, placed where the value belongs. */
export function emptyValueAfter(key: Node): Node {
  const end = key.range?.[1] ?? 0;
  const empty = new Scalar(null);
  empty.range = [end, end, end];
  return empty;
}

/**
 * Composes the document with stack traces off: yaml builds an Error per syntax error, and
 * capturing a stack for each of 100,000 of them costs more than parsing. Synchronous, so nothing
 * else runs while the limit is lowered.
 */
function composeQuietly(text: string, lines: LineCounter): Document {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // Keys are checked for uniqueness by inspectDocument: yaml's own check is quadratic.
    return parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Fills a line counter up to `end`, for a problem found before yaml (which fills it) ran. */
function countLines(text: string, end: number, lines: LineCounter): void {
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
}

function describeNode(node: Node | null): string {
  if (!node) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return describeValue(node.value);
  return 'something else';
}

export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'string') return value === '' ? 'an empty string' : `"${shorten(value)}"`;
  return `${typeof value} ${shorten(String(value))}`;
}

/** Messages quote values; a 500 KB value would drown the message. */
function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
