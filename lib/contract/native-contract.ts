import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { datasetNameProblem } from './dataset-name.js';
import { reportDefaultUsed, type ContractDefaults, type LoadOptions } from './contract-defaults.js';
import { foreignKeyHint, foreignKeyHints } from './foreign-keys.js';
import { SCHEMA_SEVERITY_RULES, type ColumnSpec, type Contract, type ContractSchema, type SemVer } from './model.js';
import type { ContractProblem } from './problems.js';
import { readColumn } from './read-column.js';
import { readConsumers } from './read-consumers.js';
import { readCsvDialect } from './read-csv-dialect.js';
import { readOnViolation } from './read-on-violation.js';
import { readReferenceRows } from './read-reference-rows.js';
import { readSeverity, undeclaredSchemaRules, withoutUndeclared } from './read-severity.js';
import { readSla } from './read-sla.js';
import { parseTemporal } from './temporal.js';
import { checkPartitionTemplate } from './partition-template.js';
import { versionHint } from './version-hint.js';
import { YamlReader, type Entries } from './yaml-reader.js';

export const CONTRACT_KEYS = ['name', 'version', 'status', 'sunset', 'owner', 'description', 'produces', 'schema', 'sla', 'consumers', 'compat', 'on_violation', 'reference_rows'] as const;

export const SCHEMA_KEYS = ['grain', 'extra_columns', 'columns', 'severity'] as const;

export { NAME } from './dataset-name.js';
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export interface LoadResult {
  /** Present only when the file has no errors. */
  readonly contract?: Contract;
  /** Every problem in the file, errors and warnings, in document order. */
  readonly problems: readonly ContractProblem[];
}

/** Reads a contract in this project's own format from a parsed document (see load-contract.ts). */
export function readNativeContract(reader: YamlReader, options: LoadOptions = {}): LoadResult {
  // An empty document has no root but no YAML error either: readContract reports it.
  const contract = reader.hasErrors ? undefined : readContract(reader, reader.root, options.defaults ?? {});
  const problems = [...reader.problems].sort((a, b) => a.line - b.line || a.column - b.column);
  return reader.hasErrors || !contract ? { problems } : { contract, problems };
}

function readContract(reader: YamlReader, root: Node | null, defaults: ContractDefaults): Contract | undefined {
  const entries = reader.map(root, '', CONTRACT_KEYS, foreignKeyHint);
  if (!entries) return undefined;
  const get = (key: string, required = false) => reader.field(entries, root, '', key, required);
  const name = opt(get('name', true), (n) => readName(reader, n));
  const version = opt(get('version', true), (n) => readVersion(reader, n));
  const status = opt(get('status'), (n) => reader.oneOf(n, 'status', ['active', 'deprecated', 'retired'] as const)) ?? 'active';
  const sunset = opt(get('sunset'), (n) => readDate(reader, n, 'sunset'));
  if (status === 'deprecated' && sunset === undefined && !entries.has('sunset')) {
    reader.report('sunset_required', 'sunset', entries.get('status')?.value, 'a deprecated version needs a "sunset" date (YYYY-MM-DD) after which it is retired');
  }
  const owner = opt(get('owner', true), (n) => readOwner(reader, n, defaults));
  const description = opt(get('description'), (n) => reader.string(n, 'description'));
  const produces = opt(get('produces', true), (n) => readProduces(reader, n, defaults));
  const schemaRead = opt(get('schema', true), (n) => readSchema(reader, n, name));
  const schema = schemaRead?.schema;
  const sla = opt(get('sla'), (n) => readSla(reader, n));
  const compat = opt(get('compat'), (n) => readCompat(reader, n)) ?? { mode: 'backward' as const };
  const consumers = opt(get('consumers'), (n) => readConsumers(reader, n, schemaRead?.declared ?? new Set())) ?? [];
  const onViolation = opt(get('on_violation'), (n) => readOnViolation(reader, n));
  // Read against the schema as loaded: a schema with mistakes was reported, and its rows wait for it.
  const referenceRows = schema ? opt(get('reference_rows'), (n) => readReferenceRows(reader, n, { schema, declared: schemaRead?.declared ?? new Set() })) : undefined;
  if (name) checkFileName(reader, entries, name, version);
  if (schemaRead?.schema && sla) checkFreshnessColumn(reader, entries, schemaRead.schema, schemaRead.declared, sla.freshnessColumn);
  if (!name || !version || !owner || !produces || !schema || reader.hasErrors) return undefined;
  return { name, version, status, sunset, owner, description, produces, schema, sla, consumers, compat, ...(onViolation ? { onViolation } : {}), ...(referenceRows?.length ? { referenceRows } : {}) };
}

function opt<T>(node: Node | null | undefined, read: (node: Node | null) => T | undefined): T | undefined {
  return node === undefined ? undefined : read(node);
}

function readName(reader: YamlReader, node: Node | null): string | undefined {
  const name = reader.string(node, 'name');
  const problem = name === undefined ? undefined : datasetNameProblem(name);
  if (problem === undefined) return name;
  reader.report('invalid_value', 'name', node, problem);
  return undefined;
}

export function readVersion(reader: YamlReader, node: Node | null): SemVer | undefined {
  const value = reader.scalar(node, 'version');
  if (value === undefined) return undefined; // not a single value: already reported
  const text = String(value ?? '');
  const match = SEMVER.exec(text);
  if (match) return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), text };
  const hint = versionHint(node, value);
  const found = typeof value === 'number' ? text : `"${text}"`;
  reader.report('invalid_value', 'version', node, `expected a semantic version MAJOR.MINOR.PATCH such as 1.2.0, found ${found}${hint === undefined ? '' : `: ${hint}`}`);
  return undefined;
}

export function readDate(reader: YamlReader, node: Node | null, path: string): string | undefined {
  const text = reader.string(node, path, 'a date (YYYY-MM-DD)');
  if (text === undefined || parseTemporal(text, 'date') !== undefined) return text;
  reader.report('invalid_value', path, node, `expected a date (YYYY-MM-DD), found "${text}"`);
  return undefined;
}

function readOwner(reader: YamlReader, node: Node | null, defaults: ContractDefaults): Contract['owner'] | undefined {
  const entries = reader.map(node, 'owner', ['team', 'notify']);
  if (!entries) return undefined;
  const team = opt(reader.field(entries, node, 'owner', 'team', true), (n) => reader.string(n, 'owner.team'));
  if (!entries.has('notify') && defaults.notify?.length) {
    reportDefaultUsed(reader, 'owner.notify', node, `[${defaults.notify.join(', ')}]`, 'the owner lists no addresses to page');
    return team ? { team, notify: [...defaults.notify] } : undefined;
  }
  const notifyNode = reader.field(entries, node, 'owner', 'notify', true);
  const notify = opt(notifyNode, (n) => reader.stringList(n, 'owner.notify'));
  if (notify?.length === 0) reader.report('invalid_value', 'owner.notify', notifyNode, 'expected at least one address to page');
  return team && notify?.length ? { team, notify } : undefined;
}

function readProduces(reader: YamlReader, node: Node | null, defaults: ContractDefaults): Contract['produces'] | undefined {
  const entries = reader.map(node, 'produces', ['format', 'partition', 'csv']);
  if (!entries) return undefined;
  const defaultFormat = entries.has('format') ? undefined : defaults.format;
  if (defaultFormat) reportDefaultUsed(reader, 'produces.format', node, defaultFormat, 'produces names no format');
  const format = defaultFormat ?? opt(reader.field(entries, node, 'produces', 'format', true), (n) => reader.oneOf(n, 'produces.format', ['parquet', 'csv', 'jsonl'] as const));
  const partitionNode = reader.field(entries, node, 'produces', 'partition');
  const defaultPartition = partitionNode === undefined ? defaults.partition : undefined;
  if (defaultPartition) reportDefaultUsed(reader, 'produces.partition', node, `"${defaultPartition}"`, 'produces names no partition template');
  const partition = opt(partitionNode, (n) => reader.string(n, 'produces.partition')) ?? defaultPartition ?? 'dt={ds}';
  const templateProblem = checkPartitionTemplate(partition);
  if (templateProblem) reader.report('invalid_value', 'produces.partition', partitionNode, templateProblem);
  const csvNode = reader.field(entries, node, 'produces', 'csv');
  const csv = opt(csvNode, (n) => readCsvDialect(reader, n));
  if (csvNode !== undefined && format !== undefined && format !== 'csv') {
    reader.report('invalid_value', 'produces.csv', csvNode, `a CSV dialect applies to produces.format csv, and this contract's format is ${format}: remove produces.csv`);
  }
  if (!format || templateProblem || (csvNode !== undefined && csv === undefined)) return undefined;
  return { format, partition, ...(csv ? { csv } : {}) };
}

/** `declared` holds every column name written down, also of columns with other mistakes. */
function readSchema(reader: YamlReader, node: Node | null, contract: string | undefined): { schema: ContractSchema | undefined; declared: Set<string> } | undefined {
  const entries = reader.map(node, 'schema', SCHEMA_KEYS, foreignKeyHints('schema'));
  if (!entries) return undefined;
  const columnsNode = reader.field(entries, node, 'schema', 'columns', true);
  const items = opt(columnsNode, (n) => reader.items(n, 'schema.columns'));
  if (items?.length === 0) reader.report('invalid_value', 'schema.columns', columnsNode, 'expected at least one column');
  const grainNode = reader.field(entries, node, 'schema', 'grain');
  const grainRead = opt(grainNode, (n) => reader.stringList(n, 'schema.grain'));
  const grain = grainRead ?? [];
  const read = (items ?? []).map((item, i) => readColumn(reader, item, `schema.columns[${i}]`, { contract, grain: new Set(grain) }));
  const columns = read.filter((c): c is ColumnSpec => c !== undefined);
  const declared = checkColumnNames(reader, items ?? []);
  grain.forEach((column, i) => checkColumnExists(reader, declared, column, `schema.grain[${i}]`, itemAt(reader, grainNode, i) ?? grainNode));
  for (const [i, column] of read.entries()) {
    const where = child(reader, child(reader, items?.[i], 'required_when'), 'column') ?? items?.[i];
    if (column?.requiredWhen) checkColumnExists(reader, declared, column.requiredWhen.column, `schema.columns[${i}].required_when.column`, where);
  }
  const extraRead = opt(reader.field(entries, node, 'schema', 'extra_columns'), (n) => reader.oneOf(n, 'schema.extra_columns', ['allow', 'warn', 'reject'] as const));
  const extraColumns = extraRead ?? 'allow';
  // A grain or extra_columns written wrong was reported already: its severity is no second mistake.
  const undeclared = undeclaredSchemaRules({ grain: grainRead ?? (grainNode === undefined ? [] : ['?']), extraColumns: extraRead ?? (entries.has('extra_columns') ? 'reject' : 'allow') });
  const severity = opt(reader.field(entries, node, 'schema', 'severity'), (n) => withoutUndeclared(reader, 'schema.severity', readSeverity(reader, n, 'schema.severity', SCHEMA_SEVERITY_RULES), undeclared, 'the schema'));
  return { schema: items ? { grain, extraColumns, columns, ...(severity ? { severity } : {}) } : undefined, declared };
}

/** Reports a column name declared twice and returns every declared name. */
function checkColumnNames(reader: YamlReader, items: (Node | null)[]): Set<string> {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const node = child(reader, item, 'name');
    const name = node && isScalar(node) ? node.value : undefined;
    if (typeof name !== 'string' || name === '') return;
    if (seen.has(name)) reader.report('duplicate_column', `schema.columns[${i}].name`, node, `column "${name}" is declared twice`);
    seen.add(name);
  });
  return seen;
}

/** A column with another mistake is still declared: naming it is not a second mistake. */
function checkColumnExists(reader: YamlReader, declared: ReadonlySet<string>, name: string, path: string, node: Node | null | undefined): void {
  if (declared.has(name)) return;
  reader.report('unknown_column', path, node, `"${name}" is not a column of schema.columns`);
}

/** The value node under `key` of a mapping node, to place a problem; undefined when there is none. */
function child(reader: YamlReader, node: Node | null | undefined, key: string): Node | undefined {
  const map = reader.resolve(node);
  if (!map || !isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return reader.resolve(pair?.value as Node | null | undefined) ?? undefined;
}

function itemAt(reader: YamlReader, node: Node | null | undefined, index: number): Node | undefined {
  const seq = reader.resolve(node);
  return seq && isSeq(seq) ? reader.resolve(seq.items[index] as Node | null | undefined) ?? undefined : undefined;
}

function checkFreshnessColumn(reader: YamlReader, entries: Entries, schema: ContractSchema, declared: ReadonlySet<string>, name: string | undefined): void {
  if (name === undefined) return;
  const slaNode = entries.get('sla')?.value;
  const node = child(reader, slaNode, 'freshness_column') ?? slaNode;
  const column = schema.columns.find((c) => c.name === name);
  if (!column) {
    if (!declared.has(name)) reader.report('unknown_column', 'sla.freshness_column', node, `"${name}" is not a column of schema.columns`);
  } else if (column.type.kind !== 'timestamp' && column.type.kind !== 'date' && column.type.kind !== 'timestamp_ntz') {
    reader.report('rule_not_for_type', 'sla.freshness_column', node, `freshness needs a date or timestamp column; "${name}" is ${column.typeText}`);
  }
}

function readCompat(reader: YamlReader, node: Node | null): Contract['compat'] | undefined {
  const entries = reader.map(node, 'compat', ['mode']);
  if (!entries) return undefined;
  const mode = opt(reader.field(entries, node, 'compat', 'mode'), (n) => reader.oneOf(n, 'compat.mode', ['backward', 'forward', 'full', 'none'] as const));
  return { mode: mode ?? 'backward' };
}

/** `orders.v1.yaml` must hold dataset `orders` at major version 1: the path is the version. */
function checkFileName(reader: YamlReader, entries: Entries, name: string, version: SemVer | undefined): void {
  const match = /(?:^|[\\/])([^\\/]+)\.v(\d+)\.ya?ml$/.exec(reader.file);
  if (!match) return;
  if (match[1] !== name) reader.report('name_mismatch', 'name', entries.get('name')?.value, `the file is named for dataset "${match[1]}" but declares "${name}"`);
  if (version && Number(match[2]) !== version.major) {
    reader.report('name_mismatch', 'version', entries.get('version')?.value, `the file is named for major version ${match[2]} but declares ${version.text}; a new major version is a new file`);
  }
}
