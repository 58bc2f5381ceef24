import type { Node } from 'yaml';
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
}

/** What the library quality rules of a schema object say. */
export interface ObjectQuality {
  readonly minRows?: number;
  readonly maxRows?: number;
  readonly grain?: { readonly columns: readonly string[]; readonly node: Node | null; readonly path: string };
}

/** One quality rule that passed the checks every level shares: a library metric with one operator. */
export interface LibraryRule {
  readonly metric: string;
  readonly operator: (typeof OPERATORS)[number];
  readonly value: unknown;
  readonly unit?: string;
  readonly entries: Entries;
  readonly node: Node | null;
  readonly path: string;
}

/**
 * The quality rules of one element that contract-gate can act on. Every other rule (SQL, custom
 * engines, text, tolerances, advisory severities) is reported as not enforced, with its path.
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
    const severity = text('severity');
    if (type !== 'library' || metric === undefined) {
      notEnforced(reader, rulePath, node, label, type === 'library' ? 'it names no metric' : undefined);
    } else if (severity !== undefined && severity.toLowerCase() !== 'error') {
      notEnforced(reader, `${rulePath}.severity`, rule.get('severity')?.value, label, `its severity is "${severity}", and a contract-gate check always blocks the publish`);
    } else {
      const found = operatorOf(reader, rule, rulePath, label);
      if (found) rules.push({ metric, ...found, unit: text('unit'), entries: rule, node, path: rulePath });
    }
  }
  return rules;
}

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

const PROPERTY_METRICS = ['nullValues', 'missingValues', 'invalidValues', 'duplicateValues'];

/** Property-level metrics: nullValues/missingValues → required, invalidValues → enum or pattern, duplicateValues → unique. */
export function readPropertyQuality(reader: YamlReader, entries: Entries, path: string): PropertyQuality {
  let quality: PropertyQuality = {};
  for (const rule of libraryRules(reader, entries, path)) {
    const label = `quality metric "${rule.metric}"`;
    const args = rule.entries.get('arguments')?.value ?? null;
    const argEntries = rule.entries.has('arguments') ? odcsEntries(reader, args, `${rule.path}.arguments`) : undefined;
    if (!PROPERTY_METRICS.includes(rule.metric)) {
      notEnforced(reader, rule.path, rule.node, label, `on a property contract-gate checks ${PROPERTY_METRICS.join(', ')}`);
    } else if (!zeroTolerance(rule)) {
      notEnforced(reader, `${rule.path}.${rule.operator}`, rule.entries.get(rule.operator)?.key, label, 'contract-gate rules allow no failing row; only mustBe: 0 is enforced');
    } else if (rule.metric === 'nullValues' || (rule.metric === 'missingValues' && onlyNulls(reader, argEntries))) {
      quality = { ...quality, required: true };
    } else if (rule.metric === 'duplicateValues') {
      quality = { ...quality, unique: true };
    } else if (rule.metric === 'invalidValues' && (argEntries?.has('validValues') || argEntries?.has('pattern'))) {
      quality = { ...quality, ...validity(reader, argEntries, `${rule.path}.arguments`) };
    } else {
      notEnforced(reader, rule.path, rule.node, label, rule.metric === 'missingValues' ? 'only nulls count as missing for contract-gate' : undefined);
    }
  }
  return quality;
}

function onlyNulls(reader: YamlReader, args: Entries | undefined): boolean {
  const listed = args?.get('missingValues');
  if (!listed) return true;
  return (reader.items(listed.value, 'arguments.missingValues') ?? []).every((n) => peek(reader, n) === null);
}

function validity(reader: YamlReader, args: Entries, path: string): Pick<PropertyQuality, 'enum' | 'pattern'> {
  const valid = args.get('validValues');
  const pattern = args.get('pattern');
  const patternText = pattern ? reader.string(pattern.value, `${path}.pattern`, 'a regular expression') : undefined;
  return {
    ...(valid ? { enum: { values: (reader.items(valid.value, `${path}.validValues`) ?? []).map((n) => peek(reader, n)), node: valid.value, path: `${path}.validValues` } } : {}),
    ...(patternText !== undefined ? { pattern: { text: patternText, node: pattern?.value ?? null, path: `${path}.pattern` } } : {}),
  };
}
