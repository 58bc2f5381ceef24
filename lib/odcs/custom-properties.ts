import type { Node } from 'yaml';
import { didYouMean } from '../contract/did-you-mean.js';
import type { YamlReader } from '../contract/yaml-reader.js';
import { odcsEntries } from './odcs-nodes.js';

/**
 * What ODCS cannot say travels in `customProperties` entries named `contractGate.<key>`, placed at
 * the level the setting belongs to, with the value in the native contract's shape:
 *
 *   top level       contractGate.dataset       which `schema[]` object is the dataset, when there are several
 *                   contractGate.server        which s3 server, when several disagree
 *                   contractGate.team          the owner team, when `team.name` is absent
 *                   contractGate.notify        [addresses] paged on failures (default: members' e-mail usernames)
 *                   contractGate.format        parquet | csv | jsonl, when no s3 server says it
 *                   contractGate.partition     the partition template, e.g. dt={ds}/hr={hh}
 *                   contractGate.compat        backward | forward | full | none (default backward)
 *                   contractGate.sunset        YYYY-MM-DD (default: the date of the `endOfLife` SLA property)
 *                   contractGate.sla           { schedule, timezone, partitionLag, graceMinutes, skipDates,
 *                                                freshnessColumn (only without a latency SLA), warnLagHours,
 *                                                volumeVsHistory: { lookback, minRatio, maxRatio },
 *                                                severity: { volume_vs_history, freshness, min_rows, max_rows } }
 *                                                (the rowCount rule's own `severity` says min_rows and max_rows)
 *                   contractGate.consumers     [{ team, notify: [...], columns: [...] }]
 *                   contractGate.onViolation   { rowTolerance: 0.02 } | { maxInvalidRows: 100 }: rows breaking
 *                                              row-level rules withheld before the batch is quarantined
 *                   contractGate.referenceRows [{ key: { <grain column>: value }, expect: { <column>: value |
 *                                              { value, absolute, relative } }, required, severity, description }]:
 *                                              the native reference_rows, which no ODCS quality rule says
 *   schema object   contractGate.extraColumns  allow | warn | reject (default allow)
 *                   contractGate.severity      { grain, extra_columns }: warn reports and does not block
 *   property        contractGate.type          a native column type, overriding the logical/physical mapping
 *                   contractGate.requiredWhen  { column, in: [values] }
 *                   contractGate.notInFuture   true
 *                   contractGate.default       what readers assume for rows written before the column existed
 *                   contractGate.severity      warn, or { rule: warn } for the rules no quality rule of the
 *                                              property carries (a quality rule's own `severity` says its rule)
 *                   contractGate.references    { contract, column, major, partition }, when an ODCS
 *                                              relationship (`to: contract.column`) cannot say it
 *
 * Other custom properties belong to other tools and are left alone. A `contractGate.` name we do
 * not know is an error: it is our namespace, and a misspelt setting would silently not apply.
 */
export const CUSTOM_PREFIX = 'contractGate.';

export const TOP_CUSTOM = ['dataset', 'server', 'team', 'notify', 'format', 'partition', 'compat', 'sunset', 'sla', 'consumers', 'onViolation', 'referenceRows'] as const;
export const OBJECT_CUSTOM = ['extraColumns', 'severity'] as const;
export const PROPERTY_CUSTOM = ['type', 'requiredWhen', 'notInFuture', 'default', 'severity', 'references'] as const;
export const SLA_CUSTOM_KEYS = ['schedule', 'timezone', 'partitionLag', 'graceMinutes', 'skipDates', 'freshnessColumn', 'warnLagHours', 'volumeVsHistory', 'severity'] as const;

export interface CustomValue {
  readonly value: Node | null;
  /** Path of the value, e.g. `customProperties[2].value`, for problems about it. */
  readonly path: string;
}

export type CustomValues = ReadonlyMap<string, CustomValue>;

const ENTRY_KEYS = ['id', 'property', 'value', 'description'] as const;

/** Reads the `contractGate.*` entries of a `customProperties` list; `node` undefined means none. */
export function readCustomProperties(reader: YamlReader, node: Node | null | undefined, path: string, known: readonly string[]): CustomValues {
  const values = new Map<string, CustomValue>();
  if (node === undefined) return values;
  const items = reader.items(node, path) ?? [];
  items.forEach((item, i) => {
    const itemPath = `${path}[${i}]`;
    const entries = odcsEntries(reader, item, itemPath, ENTRY_KEYS);
    const nameNode = entries?.get('property')?.value;
    const name = nameNode === undefined ? undefined : reader.string(nameNode, `${itemPath}.property`);
    if (!entries || name === undefined || !name.startsWith(CUSTOM_PREFIX)) return;
    const key = name.slice(CUSTOM_PREFIX.length);
    if (!known.includes(key)) {
      const hint = didYouMean(key, known);
      const expected = hint ? `did you mean "${CUSTOM_PREFIX}${hint}"?` : `expected one of: ${known.map((k) => CUSTOM_PREFIX + k).join(', ')}`;
      reader.report('unknown_key', `${itemPath}.property`, nameNode, `unknown custom property "${name}" at this level; ${expected}`);
    } else if (values.has(key)) {
      reader.report('duplicate_key', `${itemPath}.property`, nameNode, `"${name}" is given twice`);
    } else {
      const value = entries.get('value');
      if (!value) reader.report('missing_key', `${itemPath}.value`, item, `"${name}" needs a value`);
      else values.set(key, { value: value.value, path: `${itemPath}.value` });
    }
  });
  return values;
}

/** Reads one custom value when present. */
export function readCustom<T>(custom: CustomValues, key: string, read: (node: Node | null, path: string) => T | undefined): T | undefined {
  const entry = custom.get(key);
  return entry === undefined ? undefined : read(entry.value, entry.path);
}
