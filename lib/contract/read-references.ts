import type { Node } from 'yaml';
import { datasetNameProblem } from './dataset-name.js';
import { foreignKeyHints } from './foreign-keys.js';
import type { ColumnReference } from './model.js';
import type { YamlReader } from './yaml-reader.js';

export const REFERENCE_KEYS = ['contract', 'column', 'major', 'partition'] as const;

/** A partition path of literal `key=value` segments, e.g. `dt=2026-11-30` or `dt=2026-11-30/hr=06`. */
const PARTITION = /^[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.-]+(\/[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.-]+)*$/;

/** The column being read, to refuse a reference to itself. */
export interface Referrer {
  readonly contract?: string;
  readonly column?: string;
}

/**
 * Reads `references: { contract, column, major?, partition? }`. Whether the referenced column
 * exists, and its type and size, needs the other contract: lint checks those (check-references.ts).
 */
export function readReferences(reader: YamlReader, node: Node | null, path: string, self: Referrer): ColumnReference | undefined {
  const entries = reader.map(node, path, REFERENCE_KEYS, foreignKeyHints('references'));
  if (!entries) return undefined;
  const read = <T>(key: string, required: boolean, fn: (n: Node | null, at: string) => T | undefined): T | undefined => {
    const value = reader.field(entries, node, path, key, required);
    return value === undefined ? undefined : fn(value, `${path}.${key}`);
  };
  const contract = read('contract', true, (n, at) => readContractName(reader, n, at));
  const column = read('column', true, (n, at) => reader.string(n, at, 'a column name'));
  const major = read('major', false, (n, at) => reader.number(n, at, { integer: true, min: 1 }));
  const partition = read('partition', false, (n, at) => readPartition(reader, n, at));
  if (contract === undefined || column === undefined) return undefined;
  if (contract === self.contract && column === self.column) {
    reader.report('self_reference', `${path}.column`, entries.get('column')?.value, `column "${column}" references itself in contract "${contract}": its values would be checked against their own keys; name the column of another contract (or another column of this one) it points to`);
    return undefined;
  }
  return { contract, column, ...(major === undefined ? {} : { major }), ...(partition === undefined ? {} : { partition }) };
}

function readContractName(reader: YamlReader, node: Node | null, path: string): string | undefined {
  const name = reader.string(node, path, 'a dataset name');
  const problem = name === undefined ? undefined : datasetNameProblem(name);
  if (problem === undefined) return name;
  reader.report('invalid_value', path, node, `${problem}: the name of the referenced contract, e.g. customers`);
  return undefined;
}

function readPartition(reader: YamlReader, node: Node | null, path: string): string | undefined {
  const text = reader.string(node, path, 'a partition path such as dt=2026-11-30');
  if (text === undefined || PARTITION.test(text)) return text;
  reader.report('invalid_value', path, node, `expected a partition path of key=value segments such as dt=2026-11-30 (or leave partition out for the latest published one), found "${text}"`);
  return undefined;
}
