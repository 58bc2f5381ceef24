import type { Severity } from '../contract/model.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { odcsEntries, peek } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import { libraryRules, zeroTolerance, type LibraryRule, type PropertyQuality, type QualityRule } from './read-quality.js';
import { ruleTolerance } from './read-tolerance.js';

const PROPERTY_METRICS = ['nullValues', 'missingValues', 'invalidValues', 'duplicateValues'];

/**
 * Property-level metrics: nullValues/missingValues → required, invalidValues → enum or pattern,
 * duplicateValues → unique. A rule's `severity` becomes its rule's; several rules stating one
 * rule all hold, so an error among them makes it an error. A row-level rule that allows some
 * failing rows (`mustBeLessThan: 2`, `unit: percent`) is enforced, its threshold a candidate for
 * the contract's on_violation (read-dataset.ts chooses).
 */
export function readPropertyQuality(reader: YamlReader, entries: Entries, path: string): PropertyQuality {
  let quality: PropertyQuality = {};
  for (const rule of libraryRules(reader, entries, path)) {
    const label = `quality metric "${rule.metric}"`;
    const args = rule.entries.get('arguments')?.value ?? null;
    const argEntries = rule.entries.has('arguments') ? odcsEntries(reader, args, `${rule.path}.arguments`) : undefined;
    if (!PROPERTY_METRICS.includes(rule.metric)) {
      notEnforced(reader, rule.path, rule.node, label, `on a property contract-gate checks ${PROPERTY_METRICS.join(', ')}`);
      continue;
    }
    const stated = statedRules(reader, rule, argEntries);
    if (stated === undefined) {
      notEnforced(reader, rule.path, rule.node, label, rule.metric === 'missingValues' ? 'only nulls count as missing for contract-gate' : undefined);
      continue;
    }
    const tolerance = zeroTolerance(rule) ? undefined : ruleTolerance(reader, rule, label, stated.rules.includes('unique'));
    if (tolerance === null) continue;
    const severity = { ...quality.severity };
    for (const name of stated.rules) severity[name] = strictest(severity[name], rule.severity);
    quality = { ...quality, ...stated.quality, severity, ...(tolerance ? { tolerances: [...(quality.tolerances ?? []), tolerance] } : {}) };
  }
  return quality;
}

/** The rules one quality rule states, or undefined for one contract-gate does not check. */
function statedRules(reader: YamlReader, rule: LibraryRule, args: Entries | undefined): { rules: QualityRule[]; quality: PropertyQuality } | undefined {
  if (rule.metric === 'nullValues' || (rule.metric === 'missingValues' && onlyNulls(reader, args))) return { rules: ['required'], quality: { required: true } };
  if (rule.metric === 'duplicateValues') return { rules: ['unique'], quality: { unique: true } };
  if (rule.metric !== 'invalidValues' || !args || !(args.has('validValues') || args.has('pattern'))) return undefined;
  const quality = validity(reader, args, `${rule.path}.arguments`);
  return { rules: [...(quality.enum ? ['enum' as const] : []), ...(quality.pattern ? ['pattern' as const] : [])], quality };
}

function strictest(a: Severity | undefined, b: Severity): Severity {
  return a === 'error' || b === 'error' ? 'error' : 'warn';
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
