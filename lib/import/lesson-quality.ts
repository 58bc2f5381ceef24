import type { Node } from 'yaml';
import type { ImportContext } from './legacy-shape.js';
import { documentedFreshness, keepOtherKeys } from './legacy-shape.js';
import { minutesAsHours, setSla } from './read-sla-text.js';

const QUALITY = ['uniqueness', 'freshness_warn_after_minutes', 'freshness_error_after_minutes', 'row_count_minimum_per_hour'];
const EXTRA: Readonly<Record<string, 'allow' | 'warn' | 'reject'>> = { allow: 'allow', ignore: 'allow', warn: 'warn', flag: 'warn', reject: 'reject', fail: 'reject' };

/** The lesson's `quality` section: the unique keys, the freshness thresholds, the hourly row floor. */
export function readQuality(c: ImportContext, node: Node | null | undefined): void {
  if (node === undefined) return;
  readUniqueness(c, c.nodes.child(node, 'uniqueness'));
  readFreshness(c, node);
  const hourly = c.nodes.child(node, 'row_count_minimum_per_hour');
  if (hourly !== undefined) {
    c.log.notEnforced('quality.row_count_minimum_per_hour', hourly, { key: 'sla' }, `at least ${c.nodes.text(hourly) ?? '?'} rows per hour (sla.min_rows counts the rows of one partition: with hourly partitions, produces.partition "dt={ds}/hh={hh}", write sla.min_rows: ${c.nodes.text(hourly) ?? '?'})`);
  }
  keepOtherKeys(c, node, 'quality', QUALITY, { key: 'schema' });
}

/**
 * `uniqueness: [{ key: [order_id, status, event_timestamp], constraint: unique }]`: the first
 * key is the grain (unique and non-null together, as a composite key must be); a later
 * one-column key is that column's `unique`. The older `uniqueness: [order_id]` is a grain too.
 */
function readUniqueness(c: ImportContext, node: Node | null | undefined): void {
  const { nodes, draft } = c;
  if (node === undefined) return;
  const plain = nodes.strings(node);
  const keys = plain ? [{ key: plain, node }] : nodes.items(node).map((item) => ({ key: nodes.strings(nodes.child(item, 'key') ?? item), node: item }));
  keys.forEach(({ key, node: item }, i) => {
    const path = `quality.uniqueness[${i}]`;
    const constraint = nodes.text(nodes.child(item, 'constraint'));
    if (!key || (constraint !== undefined && constraint !== 'unique')) {
      c.log.notEnforced(path, item, { key: 'schema' }, `uniqueness rule ${item?.toString() ?? '?'}`);
    } else if (draft.schema.grain === undefined) {
      draft.schema.grain = key;
      c.log.note({ key: 'schema' }, `grain [${key.join(', ')}] is the source's ${path}`);
    } else if (key.length === 1 && draft.schema.columns.some((col) => col.name === key[0])) {
      draft.schema.columns.filter((col) => col.name === key[0]).forEach((col) => (col.unique = true));
    } else {
      c.log.notEnforced(path, item, { key: 'schema' }, `a second unique key [${key.join(', ')}] (the grain is the first)`);
    }
  });
}

/**
 * The error threshold is max_lag_hours, the warning warn_lag_hours; both take fractions of an
 * hour, so minutes carry over exactly. They are measured on ingested_at: the lesson's dbt source
 * freshness for these same thresholds uses `loaded_at_field: ingested_at`.
 */
function readFreshness(c: ImportContext, quality: Node | null | undefined): void {
  const { nodes } = c;
  const minutes = (key: string) => {
    const node = nodes.child(quality, key);
    const value = nodes.number(node);
    if (node !== undefined && (value === undefined || value < 0)) c.log.error(`quality.${key}`, node, `expected a number of minutes for ${key}`);
    return { node, value };
  };
  const error = minutes('freshness_error_after_minutes');
  const warn = minutes('freshness_warn_after_minutes');
  const warnFirst = warn.value !== undefined && (error.value === undefined || warn.value < error.value);
  if (warn.value !== undefined && !warnFirst) c.log.notEnforced('quality.freshness_warn_after_minutes', warn.node, { key: 'sla' }, `a freshness warning after ${warn.value} minutes, not before the error after ${error.value ?? '?'} minutes`);
  setSla(c, {
    max_lag_hours: error.value === undefined ? undefined : minutesAsHours(error.value),
    warn_lag_hours: warnFirst && warn.value !== undefined ? minutesAsHours(warn.value) : undefined,
  });
  const said = [error.value === undefined ? '' : `max_lag_hours is freshness_error_after_minutes: ${error.value}`, warnFirst ? `warn_lag_hours is freshness_warn_after_minutes: ${warn.value}` : ''].filter(Boolean);
  if (said.length > 0) c.log.note({ key: 'sla' }, `${said.join('; ')} (hours = minutes / 60)`);
  documentedFreshness(c, 'ingested_at', "the lesson's dbt source freshness for these thresholds reads loaded_at_field: ingested_at");
}

/** The lesson's validator flags fields the contract does not list and lets them through: extra_columns warn, unless `on_additional_fields` says otherwise. */
export function readExtraFields(c: ImportContext, node: Node | null | undefined): void {
  const text = c.nodes.text(node)?.toLowerCase();
  const mode = text === undefined ? undefined : EXTRA[text];
  if (node !== undefined && mode === undefined) {
    c.log.error('on_additional_fields', node, `on_additional_fields "${text ?? '?'}" is not one of ${Object.keys(EXTRA).join(', ')}`);
    return;
  }
  c.draft.schema.extra_columns = mode ?? 'warn';
  if (mode === undefined) c.log.note({ key: 'schema' }, "extra_columns warn: the lesson's validator flags fields the contract does not list and does not reject them (additionalProperties: true)");
}
