import { parse, stringify } from 'yaml';
import type { Contract } from '../contract/model.js';
import { entryNamed, isEntry, OWNED, ownedOf, partNames, valueAt, type Entry } from './dbt-schema-part.js';
import { unifiedDiff } from './line-diff.js';
import { exportDbt, type DbtOptions } from './to-dbt.js';

/** What `export --to dbt --check` found in a committed schema.yml. */
export interface DbtDrift {
  readonly upToDate: boolean;
  /** One line per owned entry that is missing or differs, e.g. `model orders differs`. */
  readonly findings: readonly string[];
  /** The owned part as committed against as generated, both in the export's own layout. */
  readonly diff: string;
  /** The adapter the committed model says it was exported for, when that is not the one checked. */
  readonly otherAdapter?: string;
}

/** Integers as written: a bound past 2^53 must compare digit for digit. */
const READ = { intAsBigInt: true } as const;

/** The owned entries of one schema.yml: the model, the source's own keys, the source's table. */
interface Part {
  readonly model?: Entry;
  readonly source?: Entry;
  readonly table?: Entry;
}

/**
 * Compares what the export owns in a committed schema.yml (dbt-schema-part.ts) with what the
 * contract generates now. The comparison is of YAML values, so key order, quoting, indentation,
 * flow or block style and comments are no difference; a test that was added, removed or edited
 * is. `committed` is the file as `readDbtSchema` read it, undefined for a file that does not exist.
 */
export function dbtDrift(contract: Contract, committed: Entry | undefined, options: DbtOptions = {}): DbtDrift {
  const generated = partOf(parse(exportDbt(contract, options), READ) as Entry, contract);
  const found = committed === undefined ? {} : partOf(committed, contract, generated);
  const names = partNames(contract);
  const findings = [
    finding(`model ${names.model}`, found.model, generated.model),
    finding(`source ${names.source}`, found.source, generated.source),
    finding(`source table ${names.source}.${names.table}`, found.table, generated.table),
  ].filter((line) => line !== undefined);
  const adapter = found.model && valueAt(found.model, ['config', 'meta', 'contract_gate', 'adapter']);
  const checked = options.adapter ?? 'ansi';
  return {
    upToDate: findings.length === 0,
    findings,
    diff: findings.length === 0 ? '' : unifiedDiff(render(found), render(generated), { old: 'committed', new: `generated from ${contract.name} ${contract.version.text}` }),
    ...(typeof adapter === 'string' && adapter !== checked ? { otherAdapter: adapter } : {}),
  };
}

/** A schema.yml's text as the value `dbtDrift` compares; YAML errors are the caller's to report. */
export function readDbtSchema(text: string): { readonly root?: Entry; readonly error?: string } {
  try {
    const root: unknown = parse(text, READ);
    if (root === null || root === undefined) return { root: {} };
    return isEntry(root) ? { root } : { error: 'is not a mapping of version, models and sources' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function finding(what: string, found: Entry | undefined, generated: Entry | undefined): string | undefined {
  if (found === undefined) return `${what} is missing`;
  if (sameValue(found, generated)) return undefined;
  const why = [switchedOff(found), versioned(found), render({ model: found }) === render({ model: generated }) ? firstDifference(found, generated) : undefined].filter((reason) => reason !== undefined);
  return why.length === 0 ? `${what} differs` : `${what} differs: ${why.join('; ')}`;
}

/** A committed `config.enabled` other than true (ownedOf drops `true`): dbt runs none of the entry's tests. */
function switchedOff(entry: Entry): string | undefined {
  const enabled = valueAt(entry, ['config', 'enabled']);
  if (enabled === undefined) return undefined;
  return `config.enabled is ${JSON.stringify(enabled)}, which can switch off all its tests (the export owns it: leave it out, or true)`;
}

/** Model versions the export does not write: each can exclude columns or redefine their tests. */
function versioned(entry: Entry): string | undefined {
  const keys = ['versions', 'latest_version'].filter((key) => entry[key] !== undefined);
  return keys.length === 0 ? undefined : `it has ${keys.join(' and ')}, which the export does not write (a version can drop columns or their tests); remove ${keys.length === 1 ? 'it' : 'them'}`;
}

/** Deep equality of parsed YAML values (mappings whatever their key order); cheaper than printing both. */
function sameValue(x: unknown, y: unknown): boolean {
  if (Array.isArray(x)) return Array.isArray(y) && x.length === y.length && x.every((item, at) => sameValue(item, y[at]));
  if (!isEntry(x)) return x === y || (Number.isNaN(x) && Number.isNaN(y)) || sameNumber(x, y);
  if (!isEntry(y) || Object.keys(x).length !== Object.keys(y).length) return false;
  return Object.keys(x).every((key) => Object.hasOwn(y, key) && sameValue(x[key], y[key]));
}

/**
 * `0` and `0.0` (an int and a float to dbt's PyYAML) are one bound: the test's SQL compares
 * `amount >= 0` and `amount >= 0.0` alike in every warehouse. A bigint is an integer as written.
 */
function sameNumber(x: unknown, y: unknown): boolean {
  const [a, b] = [x, y].map((v) => (typeof v === 'bigint' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : v));
  return (typeof a === 'bigint' || typeof a === 'number') && typeof a === typeof b ? a === b : false;
}

/** Where two values differ, for a change the printed lines cannot show (a string against a number). */
function firstDifference(x: unknown, y: unknown, path = ''): string | undefined {
  if (sameValue(x, y)) return undefined;
  if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) return x.map((item, at) => firstDifference(item, y[at], `${path}[${at}]`)).find(Boolean);
  if (isEntry(x) && isEntry(y)) return [...new Set([...Object.keys(x), ...Object.keys(y)])].map((key) => firstDifference(x[key], y[key], path ? `${path}.${key}` : key)).find(Boolean);
  const shown = (v: unknown) => (v === undefined ? 'absent' : `${JSON.stringify(v, (_k, n) => (typeof n === 'bigint' ? Number(n) : n))} (${typeof v === 'bigint' ? 'integer' : typeof v})`);
  return `${path}: committed ${shown(x)}, generated ${shown(y)}`;
}

/** The owned entries of a file, its keys and columns put in the generated part's order to compare. */
function partOf(root: Entry, contract: Contract, reference: Part = {}): Part {
  const names = partNames(contract);
  const model = entryNamed(root['models'], names.model);
  const source = entryNamed(root['sources'], names.source);
  const table = source && entryNamed(source['tables'], names.table);
  return {
    ...(model ? { model: aligned(ownedModel(model, reference.model), reference.model) as Entry } : {}),
    ...(source ? { source: aligned(ownedOf(source, OWNED.source), reference.source) as Entry } : {}),
    ...(table ? { table: aligned(ownedOf(table, OWNED.table), reference.table) as Entry } : {}),
  };
}

/** The model's owned keys and its columns, matched by name: those the reference names first, in its order. */
function ownedModel(model: Entry, reference: Entry | undefined): Entry {
  const owned = ownedOf(model, OWNED.model);
  const columns = model['columns'];
  if (!Array.isArray(columns)) return columns === undefined ? owned : { ...owned, columns };
  const order = (Array.isArray(reference?.['columns']) ? (reference['columns'] as Entry[]) : []).map((column) => column['name']);
  const rank = (column: unknown) => {
    const at = isEntry(column) ? order.indexOf(column['name']) : -1;
    return at === -1 ? order.length : at;
  };
  const sorted = columns.map((column, at) => ({ column, at })).sort((x, y) => rank(x.column) - rank(y.column) || x.at - y.at);
  return { ...owned, columns: sorted.map(({ column }) => (isEntry(column) ? ownedOf(column, OWNED.column) : column)) };
}

/** A value with its mappings' keys in the reference's order (keys it lacks last), so a reordering shows no line. */
function aligned(value: unknown, reference: unknown): unknown {
  if (Array.isArray(value)) return value.map((item, at) => aligned(item, Array.isArray(reference) ? reference[at] : undefined));
  if (!isEntry(value)) return value;
  const ref = isEntry(reference) ? reference : {};
  const keys = [...Object.keys(ref).filter((key) => key in value), ...Object.keys(value).filter((key) => !(key in ref))];
  return Object.fromEntries(keys.map((key) => [key, aligned(value[key], ref[key])]));
}

/** The owned part in the shape of a schema.yml, the text the diff is of. */
function render(part: Part): string {
  const source = part.source && { ...part.source, ...(part.table ? { tables: [part.table] } : {}) };
  const file = { ...(part.model ? { models: [part.model] } : {}), ...(source ? { sources: [source] } : {}) };
  return Object.keys(file).length === 0 ? '' : stringify(file, { lineWidth: 0 });
}
