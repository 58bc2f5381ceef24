import type { Contract } from '../contract/model.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';

/** Stands in for the gate's bucket when no location is given: an obvious, greppable hole to fill. */
export const BUCKET_PLACEHOLDER = '${BUCKET}';

/** One `key=value` segment of the partition template, as a table's partition column sees it. */
export type PartitionKey =
  | { readonly name: string; readonly kind: 'date' | 'hour' }
  | { readonly name: string; readonly kind: 'literal'; readonly value: string };

/**
 * The table name for one major version. Versions live side by side under `v<major>/`, so the name
 * carries the major; Athena allows no `-` in names, and the loader allows it in dataset names.
 */
export function publishedTableName(contract: Contract): string {
  return `${contract.name.replace(/-/g, '_')}_v${contract.version.major}`;
}

/** Where the gate publishes this major version (`published/<name>/v<major>/`), with a trailing slash. */
export function publishedLocation(contract: Contract, location?: string): string {
  if (location !== undefined) return location.endsWith('/') ? location : `${location}/`;
  return `s3://${BUCKET_PLACEHOLDER}/${DEFAULT_LAYOUT.published}${contract.name}/v${contract.version.major}/`;
}

/** Whether `--location` names an S3 prefix a table can sit on. */
export function isS3Location(text: string): boolean {
  return /^s3:\/\/[^/\s]+(\/\S*)?$/.test(text);
}

/** The partition columns of a template such as `dt={ds}/hr={hh}`, outermost first. */
export function partitionKeys(template: string): PartitionKey[] {
  return template.split('/').map((segment) => {
    const at = segment.indexOf('=');
    const name = segment.slice(0, at);
    const value = segment.slice(at + 1);
    if (value === '{ds}') return { name, kind: 'date' };
    if (value === '{hh}') return { name, kind: 'hour' };
    return { name, kind: 'literal', value };
  });
}
