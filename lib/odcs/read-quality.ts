import type { Node } from 'yaml';
import type { RowTolerance, Severity } from '../contract/model.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { OPERATORS, QUALITY_KEYS } from './odcs-keys.js';
import { odcsEntries, odcsItems, peek } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';

/** What the library quality rules of a property say, in our terms. */
export interface PropertyQuality {
  readonly required?: boolean;
  readonly unique?: boolean;
  readonly enum?: { readonly values: readonly unknown[]; readonly node: Node | null; readonly path: string };
  readonly pattern?: { readonly text: string; readonly node: Node | null; readonly path: string };
  /** The severity each rule above was stated at: error when any rule stating it is an error. */
  readonly severity?: { readonly [rule in QualityRule]?: Severity };
  /** Thresholds of rules that allow some failing rows: candidates for the contract's on_violation. */
  readonly tolerances?: readonly RuleTolerance[];
}

export type QualityRule = 'required' | 'unique' | 'enum' | 'pattern';

export interface RuleTolerance {
  readonly tolerance: RowTolerance;
  readonly node: Node | null;
  readonly path: string;
}

/** What the library quality rules of a schema object say. */
export interface ObjectQuality {
  readonly minRows?: number;
  readonly maxRows?: number;
  /** Only bounds stated by warning rules alone. */
  readonly severity?: { readonly min_rows?: Severity; readonly max_rows?: Severity };
  readonly grain?: { readonly columns: readonly string[]; readonly node: Node | null; readonly path: string; readonly severity?: Severity };
}

/** One quality rule that passed the checks every level shares: a library metric with one operator. */
export interface LibraryRule {
  readonly metric: string;
  readonly operator: (typeof OPERATORS)[number];
  readonly value: unknown;
  readonly unit?: string;
  readonly severity: Severity;
  readonly entries: Entries;
  readonly node: Node | null;
  readonly path: string;
}

/**
 * The quality rules of one element that contract-gate can act on. Every other rule (SQL, custom
 * engines, text, severities other than error, warning and info) is reported as not enforced, with
 * its path. A `warning` or `info` rule is a warn rule: reported, never blocking the publish.
 */
export function libraryRules(reader: YamlReader, entries: Entries, path: string): LibraryRule[] {
  const rules: LibraryRule[] = [];
  for (const { node, path: rulePath } of odcsItems(reader, entries, path, 'quality')) {
    const rule = odcsEntries(reader, node, rulePath, QUALITY_KEYS);
    if (!rule) continue;
    const text = (key: string) => { const v = peek(reader, rule.get(key)?.value); return typeof v === 'string' ? v : undefined; };
    const type = text('type') ?? 'library';
    const metric = text('metric') ?? text('rule');
    const label = `${type === 'library' ? `quality metric "${metric ?? '?'}"` : `${type} quality rule`}${text('name') ? ` "${text('name')}"` : ''}`;
    const written = text('severity');
    const severity = written === undefined ? 'error' : SEVERITIES[written.toLowerCase()];
    if (type !== 'library' || metric === undefined) {
      notEnforced(reader, rulePath, node, label, type === 'library' ? 'it names no metric' : undefined);
    } else if (severity === undefined) {
      notEnforced(reader, `${rulePath}.severity`, rule.get('severity')?.value, label, `its severity is "${written}"; contract-gate knows error (blocks the publish) and warning or info (reported, not blocking)`);
    } else {
      const found = operatorOf(reader, rule, rulePath, label);
      if (found) rules.push({ metric, ...found, unit: text('unit'), severity, entries: rule, node, path: rulePath });
    }
  }
  return rules;
}

const SEVERITIES: Readonly<Record<string, Severity>> = { error: 'error', warning: 'warn', warn: 'warn', info: 'warn' };

function operatorOf(reader: YamlReader, rule: Entries, path: string, label: string): Pick<LibraryRule, 'operator' | 'value'> | undefined {
  const present = OPERATORS.filter((op) => rule.has(op));
  if (present.length === 0) {
    notEnforced(reader, path, rule.get('metric')?.value, label, 'it has no operator such as mustBe');
    return undefined;
  }
  if (present.length > 1) {
    reader.report('invalid_value', `${path}.${present[1]}`, rule.get(present[1]!)?.key, `a quality rule takes one operator; found ${present.join(', ')}`);
    return undefined;
  }
  const operator = present[0]!;
  const node = rule.get(operator)?.value ?? null;
  const value = operator === 'mustBeBetween' || operator === 'mustNotBeBetween' ? reader.items(node, `${path}.${operator}`)?.map((n) => peek(reader, n)) : peek(reader, node);
  return { operator, value };
}

/** "No failing row at all": the only tolerance a contract-gate rule has. */
export function zeroTolerance(rule: LibraryRule): boolean {
  const { operator, value } = rule;
  if (operator === 'mustBe' || operator === 'mustBeLessOrEqualTo') return value === 0;
  return operator === 'mustBeLessThan' && typeof value === 'number' && value > 0 && value <= 1 && rule.unit !== 'percent';
}
