import type { Contract } from '../contract/model.js';
import { publishedTableName } from './published-table.js';
import { DBT_SOURCE_NAME, dbtModelName } from './to-dbt.js';

/** A key path inside one entry of a schema.yml, e.g. `['config', 'meta', 'contract_gate']`. */
export type KeyPath = readonly string[];

/**
 * What `export --to dbt` owns in a schema.yml that may hold much else: the model named after the
 * contract (`<name>_v<major>` from major 2, to-dbt.ts), and the table `<name>_v<major>` of the source `published` (found by name, wherever
 * they sit in the file). In those entries it owns the key paths below, whether or not this
 * contract writes them (a description the contract dropped is stale, not the user's); every other
 * key (tags, docs, config.materialized, meta beside contract_gate, external.file_format, the
 * source's schema or database) is the user's, kept by `--write` and ignored by `--check`. The
 * model's columns are the contract's: matched by name, in any order, none added or missing.
 * `tests` is owned with `data_tests`, its older name, so a test cannot hide under it.
 * `config.enabled` is owned because `false` (or a Jinja expression) switches every test off; the
 * export never writes it, so only absent or `true` matches. `versions` and `latest_version` are
 * owned because a version can drop a column or redefine its tests: the export writes neither.
 */
export const OWNED = {
  model: [['name'], ['description'], ['config', 'enabled'], ['config', 'contract', 'enforced'], ['config', 'meta', 'contract_gate'], ['constraints'], ['data_tests'], ['tests'], ['versions'], ['latest_version']],
  column: [['name'], ['description'], ['data_type'], ['constraints'], ['data_tests'], ['tests'], ['meta', 'contract_gate']],
  source: [['name'], ['description'], ['config', 'enabled']],
  table: [['name'], ['description'], ['config', 'enabled'], ['external', 'location'], ['loaded_at_field'], ['freshness']],
} as const satisfies Record<string, readonly KeyPath[]>;

export type Entry = Record<string, unknown>;

/** The names the owned entries go by in this contract's export. */
export function partNames(contract: Contract): { readonly model: string; readonly source: string; readonly table: string } {
  return { model: dbtModelName(contract), source: DBT_SOURCE_NAME, table: publishedTableName(contract) };
}

export function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entry of a list (models, sources, tables, columns) with this name. */
export function entryNamed(list: unknown, name: string): Entry | undefined {
  return Array.isArray(list) ? list.find((item): item is Entry => isEntry(item) && item['name'] === name) : undefined;
}

export function valueAt(entry: Entry, path: KeyPath): unknown {
  let value: unknown = entry;
  for (const key of path) {
    if (!isEntry(value)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * Only the owned paths of an entry, in the order OWNED lists them, tests in their canonical form
 * and descriptions trimmed (a `>` block, the usual way to wrap a long one, ends in a newline).
 */
export function ownedOf(entry: Entry, paths: readonly KeyPath[]): Entry {
  const owned: Entry = {};
  for (const path of paths) {
    const value = valueAt(entry, path);
    // `enabled: true` is dbt's default: the same as absent.
    if (value === undefined || (path.at(-1) === 'enabled' && value === true)) continue;
    const key = path.at(-1)!;
    // `tests` reads as `data_tests` when it stands alone, as dbt reads it.
    const name = key === 'tests' && valueAt(entry, ['data_tests']) === undefined ? 'data_tests' : key;
    setAt(owned, [...path.slice(0, -1), name], name === 'data_tests' ? canonicalTests(value) : name === 'description' && typeof value === 'string' ? value.trim() : value);
  }
  return owned;
}

function setAt(entry: Entry, path: KeyPath, value: unknown): void {
  let at = entry;
  for (const key of path.slice(0, -1)) {
    if (!isEntry(at[key])) at[key] = {};
    at = at[key] as Entry;
  }
  at[path.at(-1)!] = value;
}

/**
 * A test as the export writes it: a bare name when it has no arguments or config, else
 * `{ name: { ...arguments, config } }`. dbt 1.10's `arguments:` form and `{ name: {} }` are the
 * same test, and a project or a tool may rewrite tests into them.
 */
function canonicalTests(tests: unknown): unknown {
  return Array.isArray(tests) ? tests.map(canonicalTest) : tests;
}

function canonicalTest(test: unknown): unknown {
  if (!isEntry(test) || Object.keys(test).length !== 1) return test;
  const [name, body] = Object.entries(test)[0]!;
  if (body === null) return name;
  if (!isEntry(body)) return test;
  const { arguments: args, config, ...rest } = body;
  const flat = { ...(isEntry(args) ? args : args === undefined ? {} : { arguments: args }), ...rest, ...(config === undefined ? {} : { config }) };
  return Object.keys(flat).length === 0 ? name : { [name]: flat };
}
