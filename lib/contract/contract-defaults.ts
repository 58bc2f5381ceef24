import type { DataFormat } from './model.js';
import type { YamlReader } from './yaml-reader.js';
import type { Node } from 'yaml';

/**
 * Operational settings the gate needs and a contract may not say — an ODCS document written for
 * a warehouse names no one to page and no file format — supplied by the caller (the CLI's
 * `--default-notify` / `--default-format`, cdk.json's `contractDefaults`). A default fills only
 * what the contract leaves out, never overrides it, and every use is a warning naming the key,
 * so a reviewer sees which settings came from outside the file.
 */
export interface ContractDefaults {
  /** Addresses paged on failures when the contract lists none. */
  readonly notify?: readonly string[];
  /** The file format when the contract names none. */
  readonly format?: DataFormat;
  /** The partition template (e.g. `dt={ds}/hr={hh}`) when the contract gives none; else `dt={ds}`. */
  readonly partition?: string;
  /** The owner team when the contract names none (an ODCS contract need not have a team). */
  readonly team?: string;
}

/** What every contract-loading function accepts besides the text. */
export interface LoadOptions {
  readonly defaults?: ContractDefaults;
}

export const DEFAULT_FORMATS: readonly DataFormat[] = ['parquet', 'csv', 'jsonl'];

/** Records that `key` came from the caller's defaults, placed where the contract would say it. */
export function reportDefaultUsed(reader: YamlReader, path: string, node: Node | null | undefined, value: string, why: string): void {
  reader.report('default_used', path, node, `${why}; using the default ${value} supplied by the caller`, 'warning');
}
