import type { Contract } from '../contract/model.js';
import { exportOdcs } from '../odcs/to-odcs.js';
import type { DbtAdapter } from './dbt-adapters.js';
import { exportAthenaDdl } from './to-athena-ddl.js';
import { exportDbt } from './to-dbt.js';
import { exportJsonSchema } from './to-json-schema.js';

export const EXPORT_TARGETS = ['odcs', 'jsonschema', 'dbt', 'sql'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

/** Targets that describe the published table, and so take its location. ODCS names only a bucket. */
export const LOCATED_TARGETS: readonly ExportTarget[] = ['dbt', 'sql'];

export interface ExportOptions {
  /** The published prefix, `s3://bucket/published/<name>/v<major>/` by default with a placeholder bucket. */
  readonly location?: string;
  /** For dbt: whose type names `data_type` uses. @default 'ansi' */
  readonly adapter?: DbtAdapter;
}

export function isExportTarget(text: string): text is ExportTarget {
  return (EXPORT_TARGETS as readonly string[]).includes(text);
}

/** The contract in another format, as the text of the file to write. */
export function exportContract(contract: Contract, target: ExportTarget, options: ExportOptions = {}): string {
  switch (target) {
    case 'odcs': return exportOdcs(contract);
    case 'jsonschema': return exportJsonSchema(contract);
    case 'dbt': return exportDbt(contract, options);
    case 'sql': return exportAthenaDdl(contract, { ...(options.location === undefined ? {} : { location: options.location }) });
  }
}
