import { compileBytePattern, type BytePattern } from '../contract/pattern-bytes.js';
import { parsePattern } from '../contract/pattern-syntax.js';
import { TEXT } from '../formats/utf8-bytes.js';
import { hashByteRange } from './key-hash.js';
import type { CheckPlan, ColumnPlan } from './check-plan.js';
import type { ReadableColumn } from './schema-check.js';
import type { ValueRule } from './value-rules.js';

/**
 * A string column's value rules in the form they run on UTF-8 bytes (check-byte-column.ts). Each
 * keeps the rule it stands for: its id and message, and `fails` for a value that has to be
 * decoded (a byte past ASCII where the pattern has no byte form, malformed UTF-8).
 */
export type ByteRule =
  | { readonly kind: 'pattern'; readonly rule: ValueRule; readonly matcher: BytePattern | undefined }
  | { readonly kind: 'length'; readonly rule: ValueRule; readonly min: number; readonly max: number }
  | { readonly kind: 'enum'; readonly rule: ValueRule; readonly entries: ByteSet };

const compiled = new WeakMap<ColumnPlan, readonly ByteRule[] | null>();

/** The column's rules on bytes, once per plan; undefined when one of them has no byte form. */
export function byteRulesFor(column: ColumnPlan): readonly ByteRule[] | undefined {
  let rules = compiled.get(column);
  if (rules === undefined) {
    rules = compileByteRules(column);
    compiled.set(column, rules);
  }
  return rules ?? undefined;
}

function compileByteRules({ spec, rules }: ColumnPlan): readonly ByteRule[] | null {
  if (spec.type.kind !== 'string' || rules.length === 0) return null;
  const out: ByteRule[] = [];
  for (const rule of rules) {
    if (rule.rule === 'pattern' && spec.pattern !== undefined) out.push({ kind: 'pattern', rule, matcher: bytePattern(spec.pattern) });
    else if (rule.rule === 'length') out.push({ kind: 'length', rule, min: spec.minLength ?? 0, max: spec.maxLength ?? Infinity });
    else if (rule.rule === 'enum' && spec.enum) out.push({ kind: 'enum', rule, entries: new ByteSet(spec.enum) });
    else return null;
  }
  return out;
}

/** A pattern the loaders refused has no byte form: its rule fails every value, through `fails`. */
function bytePattern(pattern: string): BytePattern | undefined {
  try {
    new RegExp(pattern, 'u');
    return compileBytePattern(parsePattern(pattern));
  } catch {
    return undefined;
  }
}

/**
 * String columns of a typed file whose values only their own rules read, each rule with a byte
 * form, and the string parts of a composite grain without rules: a reader may deliver them as
 * UTF-8 bytes (BatchOptions.textBytes). Not a condition of a `required_when`, the freshness
 * column, nor any column when the contract has reference rows: those read decoded values. Keys
 * are hashed from the bytes.
 */
export function byteColumns(plan: CheckPlan, readable: readonly ReadableColumn[]): Set<string> {
  const only = new Set<string>();
  if (plan.referenceRows) return only;
  const conditions = new Set(plan.columns.map((c) => c.spec.requiredWhen?.column));
  const composite = plan.grain.length > 1 ? new Set(plan.grain) : new Set<string>();
  for (const { plan: column, coerce, absent } of readable) {
    const { name } = column.spec;
    if (coerce || absent || conditions.has(name) || plan.freshness?.column === name) continue;
    // A composite grain's string part is hashed from its bytes with the other parts (compositeKeyHashes).
    const keyPart = composite.has(name) && column.spec.type.kind === 'string' && column.rules.length === 0;
    if (keyPart || byteRulesFor(column)) only.add(name);
  }
  return only;
}

const UTF8 = new TextEncoder();

/** Enum entries as UTF-8 bytes, looked up by their hash and compared byte for byte. */
export class ByteSet {
  private readonly byHash = new Map<number, Uint8Array[]>();
  /** The entries as text, for a value that is decoded. */
  readonly text: ReadonlySet<unknown>;

  constructor(entries: readonly unknown[]) {
    this.text = new Set(entries);
    for (const entry of entries) {
      // Decoded text is always well-formed: an entry with a lone surrogate equals no value.
      if (typeof entry !== 'string') continue;
      const bytes = UTF8.encode(entry);
      if (TEXT.decode(bytes) !== entry) continue;
      const hash = hashByteRange(bytes, 0, bytes.length);
      this.byHash.set(hash, [...(this.byHash.get(hash) ?? []), bytes]);
    }
  }

  /** Whether well-formed UTF-8 bytes [start, end) are an entry's. */
  has(bytes: Uint8Array, start: number, end: number): boolean {
    const candidates = this.byHash.get(hashByteRange(bytes, start, end));
    if (!candidates) return false;
    return candidates.some((entry) => entry.length === end - start && entry.every((byte, k) => bytes[start + k] === byte));
  }
}
