import type { Node } from 'yaml';
import { SCHEMA_SEVERITY_RULES, type ColumnSpec, type ContractSchema, type SchemaSeverityRule, type SeverityMap } from '../contract/model.js';
import { readSeverity, undeclaredSchemaRules, withoutUndeclared, type SeverityRead } from '../contract/read-severity.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { OBJECT_CUSTOM, readCustom, readCustomProperties, type CustomValues } from './custom-properties.js';
import { OBJECT_KEYS } from './odcs-keys.js';
import { odcsEntries, odcsItems, peekChild } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import { readObjectQuality } from './read-object-quality.js';
import { readProperty, type PropertyRead } from './read-property.js';
import type { ObjectQuality, RuleTolerance } from './read-quality.js';

/** The one `schema[]` object that is the dataset, read into our schema. */
export interface DatasetRead {
  /** Present when every column read without errors. */
  readonly schema?: ContractSchema;
  /** The property a name or physical name refers to, also one with mistakes or one left unchecked. */
  readonly find: (reference: string) => PropertyRead | undefined;
  /** `name` and `physicalName` of the object, which SLA elements may put before a column. */
  readonly objectNames: readonly string[];
  readonly volume: Pick<ObjectQuality, 'minRows' | 'maxRows' | 'severity'>;
  /** The thresholds of the columns' quality rules, for the contract's on_violation. */
  readonly tolerances: readonly RuleTolerance[];
}

export function readDataset(reader: YamlReader, top: Entries, root: Node | null, custom: CustomValues): DatasetRead | undefined {
  if (!top.has('schema')) {
    reader.report('missing_key', 'schema', root, 'missing key "schema": contract-gate needs the schema object describing the dataset\'s columns');
    return undefined;
  }
  const objects = odcsItems(reader, top, '', 'schema');
  if (objects.length === 0) {
    reader.report('invalid_value', 'schema', top.get('schema')?.value, 'expected a schema object describing the dataset\'s columns; the list is empty');
    return undefined;
  }
  const chosen = chooseObject(reader, objects, top, custom);
  return chosen ? readObject(reader, chosen.node, chosen.path) : undefined;
}

/**
 * Several objects are several datasets and a contract gates one. `contractGate.dataset` names it;
 * without it the first is gated, with a warning naming the rest, since the document is valid ODCS
 * and the dataset name (from the contract or that object) says which drops it governs.
 */
function chooseObject(reader: YamlReader, objects: { node: Node | null; path: string }[], top: Entries, custom: CustomValues): { node: Node | null; path: string } | undefined {
  const names = objects.map((o) => [peekChild(reader, o.node, 'name'), peekChild(reader, o.node, 'physicalName')].filter((n) => typeof n === 'string'));
  const quoted = names.map((n) => `"${n[0] ?? '?'}"`);
  // A catalogue export can hold dozens of tables; a message lists enough to recognise them.
  const listed = quoted.length > 8 ? `${quoted.slice(0, 8).join(', ')} and ${quoted.length - 8} more` : quoted.join(', ');
  if (custom.has('dataset')) {
    return readCustom(custom, 'dataset', (n, p) => {
      const wanted = reader.string(n, p);
      const index = wanted === undefined ? -1 : names.findIndex((aliases) => aliases.includes(wanted));
      if (wanted !== undefined && index < 0) reader.report('invalid_value', p, n, `no schema object is named "${wanted}"; the objects are ${listed}`);
      return index < 0 ? undefined : objects[index];
    });
  }
  if (objects.length > 1) {
    reader.report('not_enforced', 'schema', top.get('schema')?.value,
      `the contract describes ${objects.length} schema objects (${listed}) and a contract-gate contract is one dataset: the first, ${quoted[0]}, is gated and the others are not enforced; name the one to gate with the custom property contractGate.dataset, or give each table a contract file of its own`, 'warning');
  }
  return objects[0];
}

function readObject(reader: YamlReader, node: Node | null, path: string): DatasetRead | undefined {
  const entries = odcsEntries(reader, node, path, OBJECT_KEYS);
  if (!entries) return undefined;
  const custom = readCustomProperties(reader, entries.get('customProperties')?.value, `${path}.customProperties`, OBJECT_CUSTOM);
  const extraColumns = readCustom(custom, 'extraColumns', (n, p) => reader.oneOf(n, p, ['allow', 'warn', 'reject'] as const)) ?? 'allow';
  const properties = odcsItems(reader, entries, path, 'properties').map((p) => readProperty(reader, p.node, p.path));
  if (properties.length === 0) reader.report('invalid_value', `${path}.properties`, entries.get('properties')?.value ?? node, 'expected at least one property: the columns of the dataset');
  const byName = checkNames(reader, properties);
  checkReferences(reader, properties, extraColumns, byName);
  if (entries.has('relationships')) notEnforced(reader, `${path}.relationships`, entries.get('relationships')?.key, 'relationships (foreign keys) of the schema object', 'a relationship on the property (to: contract.column) is checked');
  const quality = readObjectQuality(reader, entries, path);
  const grain = readGrain(reader, properties, quality.grain, byName);
  const columns = properties.map((p) => p.column).filter((c): c is ColumnSpec => c !== undefined);
  const complete = grain !== undefined && properties.every((p) => p.column || p.skipped);
  const objectNames = ['name', 'physicalName'].map((k) => peekChild(reader, node, k)).filter((n): n is string => typeof n === 'string');
  const find = (ref: string) => byName.get(ref);
  const severity = grain && schemaSeverity(reader, custom, quality, { grain, extraColumns });
  const schema = complete ? { grain, extraColumns, columns, ...(severity ? { severity } : {}) } : undefined;
  const tolerances = properties.flatMap((p) => p.tolerances ?? []);
  return { schema, find, objectNames, volume: { minRows: quality.minRows, maxRows: quality.maxRows, severity: quality.severity }, tolerances };
}

/** `contractGate.severity` for the rules it names; a warning duplicateValues rule makes the grain a warning. */
function schemaSeverity(reader: YamlReader, custom: CustomValues, quality: ObjectQuality, schema: Pick<ContractSchema, 'grain' | 'extraColumns'>): SeverityMap<SchemaSeverityRule> | undefined {
  const entry = custom.get('severity');
  const read: SeverityRead<SchemaSeverityRule> = entry ? readSeverity(reader, entry.value, entry.path, SCHEMA_SEVERITY_RULES) : { named: new Map() };
  const map = { ...(quality.grain?.severity === 'warn' && !read.named.has('grain') ? { grain: 'warn' as const } : {}), ...read.map };
  return withoutUndeclared(reader, entry?.path ?? '', { map, named: read.named }, undeclaredSchemaRules(schema), 'the schema object');
}

/** Maps every name and physical name to its property, reporting a column name given twice. */
function checkNames(reader: YamlReader, properties: readonly PropertyRead[]): Map<string, PropertyRead> {
  const byName = new Map<string, PropertyRead>();
  const columns = new Set<string>();
  for (const property of properties) {
    if (property.name !== undefined && columns.has(property.name)) {
      reader.report('duplicate_column', `${property.path}.name`, property.node, `column "${property.name}" is declared twice`);
    }
    if (property.name !== undefined) columns.add(property.name);
    for (const alias of property.aliases) if (!byName.has(alias)) byName.set(alias, property);
  }
  return byName;
}

function checkReferences(reader: YamlReader, properties: readonly PropertyRead[], extraColumns: string, byName: ReadonlyMap<string, PropertyRead>): void {
  for (const property of properties) {
    if (property.skipped && extraColumns === 'reject') {
      reader.report('invalid_value', property.path, property.node, `column "${property.name ?? '?'}" cannot be checked, and with contractGate.extraColumns reject every file carrying it would fail`);
    }
    const when = property.requiredWhen;
    if (when) checkColumnReference(reader, byName.get(when.column), when.column, when.path, when.node);
  }
}

/**
 * A reference must name a column we check. A property with mistakes of its own was reported
 * already: naming it is not a second mistake.
 */
export function checkColumnReference(reader: YamlReader, target: PropertyRead | undefined, reference: string, path: string, node: Node | null): boolean {
  if (!target) reader.report('unknown_column', path, node, `"${reference}" is not a property of the dataset's schema object`);
  else if (target.skipped) reader.report('rule_not_for_type', path, node, `"${reference}" is a column contract-gate cannot check`);
  return target?.column !== undefined;
}

/** The primary key in `primaryKeyPosition` order, or a schema-level duplicateValues rule; one grain. */
function readGrain(reader: YamlReader, properties: readonly PropertyRead[], rule: ObjectQuality['grain'], byName: ReadonlyMap<string, PropertyRead>): string[] | undefined {
  const keys = properties.filter((p) => p.primaryKey).map((p, i) => ({ p, order: p.primaryKey?.position ?? Number.MAX_SAFE_INTEGER, i }));
  keys.sort((a, b) => a.order - b.order || a.i - b.i);
  let ok = true;
  keys.forEach(({ p, order }, i) => {
    const taken = keys[i - 1];
    if (order !== Number.MAX_SAFE_INTEGER && taken?.order === order) ok = report(reader, `${p.path}.primaryKeyPosition`, p.node, `primaryKeyPosition ${order} is also that of "${taken.p.name ?? '?'}"`);
    if (p.skipped) ok = report(reader, `${p.path}.primaryKey`, p.node, `primary key column "${p.name ?? '?'}" has a type contract-gate cannot check`);
  });
  const primary = keys.map(({ p }) => p.name ?? '');
  if (!rule) return ok ? primary : undefined;
  const named = rule.columns.map((ref) => byName.get(ref));
  rule.columns.forEach((ref, i) => { if (!checkColumnReference(reader, named[i], ref, `${rule.path}[${i}]`, rule.node)) ok = false; });
  const fromRule = named.map((p) => p?.name ?? '');
  if (primary.length > 0 && primary.join('\0') !== fromRule.join('\0')) {
    ok = report(reader, rule.path, rule.node, `duplicateValues over [${fromRule.join(', ')}] disagrees with the primary key [${primary.join(', ')}]; a dataset has one grain`);
  }
  return ok ? fromRule : undefined;
}

function report(reader: YamlReader, path: string, node: Node | null, message: string): false {
  reader.report('invalid_value', path, node, message);
  return false;
}
