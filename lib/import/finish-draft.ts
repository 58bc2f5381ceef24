import { basename } from 'node:path';
import type { ContractDefaults } from '../contract/contract-defaults.js';
import { NAME } from '../contract/native-contract.js';
import type { Draft } from './import-draft.js';
import type { ImportLog } from './import-log.js';

/** Written when the source names no one to page: reserved (RFC 2606), so it never delivers, and plainly a TODO. */
export const NOTIFY_PLACEHOLDER = 'todo-set-owner-notify@example.invalid';
export const TEAM_PLACEHOLDER = 'todo-set-owner-team';

/** Columns whose newest value says how fresh a dataset is, most telling first. */
const FRESHNESS_NAMES = /^(updated_at|loaded_at|_loaded_at|ingested_at|modified_at|last_modified|event_time|event_at|created_at)$/;

/**
 * Fills what a contract needs and the source did not say: the caller's defaults first (as
 * `--default-notify` does for lint), else a placeholder that lints but is plainly a TODO, each
 * with a warning and a comment. Nothing is filled silently.
 */
export function finishDraft(draft: Draft, log: ImportLog, file: string, defaults: ContractDefaults): void {
  draft.name = datasetName(draft.name, log, file);
  if (draft.version === undefined) {
    draft.version = '1.0.0';
    log.note({ key: 'version' }, 'the source has no version: 1.0.0 is the first release of this contract');
  }
  fillOwner(draft, log, defaults);
  fillProduces(draft, log, defaults);
  fillFreshness(draft, log);
}

function datasetName(name: string | undefined, log: ImportLog, file: string): string {
  const written = name ?? basename(file).replace(/\.(ya?ml|json)$/i, '').replace(/[._-]v?\d+$/i, '');
  const normal = written.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^[^a-z]+|_+$/g, '');
  const result = NAME.test(normal) ? normal : 'todo_dataset_name';
  if (name === undefined || result !== name) {
    log.placeholder('', null, { key: 'name' }, name === undefined ? `the source names no dataset; "${result}" is taken from the file name: check it` : `"${name}" is not a dataset name (lower case letters, digits, _ or -); written as "${result}"`);
  }
  return result;
}

function fillOwner(draft: Draft, log: ImportLog, defaults: ContractDefaults): void {
  // The importer said already why the owner is missing (an address redacted on a page).
  if (log.hasTodo('owner') && draft.owner.team === undefined && !defaults.team && !defaults.notify?.length) {
    draft.owner = { team: TEAM_PLACEHOLDER, notify: [NOTIFY_PLACEHOLDER] };
    return;
  }
  if (draft.owner.team === undefined) {
    draft.owner.team = defaults.team ?? TEAM_PLACEHOLDER;
    log.placeholder('', null, { key: 'owner' }, defaults.team ? `the source names no owner team; the default "${defaults.team}" is written` : 'the source names no owner team: set owner.team');
  }
  if (draft.owner.notify === undefined || draft.owner.notify.length === 0) {
    const given = defaults.notify?.length ? [...defaults.notify] : undefined;
    draft.owner.notify = given ?? [NOTIFY_PLACEHOLDER];
    log.placeholder('', null, { key: 'owner' }, given
      ? `the source names no one to page; the default addresses ${given.join(', ')} are written`
      : `the source names no one to page: replace ${NOTIFY_PLACEHOLDER} in owner.notify (or import with --default-notify)`);
  }
}

function fillProduces(draft: Draft, log: ImportLog, defaults: ContractDefaults): void {
  if (draft.produces.format === undefined) {
    draft.produces.format = defaults.format ?? 'parquet';
    log.placeholder('', null, { key: 'produces' }, defaults.format ? `the source names no file format; the default ${defaults.format} is written` : 'the source names no file format: parquet is written; change produces.format (or import with --default-format)');
  }
  if (draft.produces.partition === undefined && defaults.partition !== undefined) {
    draft.produces.partition = defaults.partition;
    log.note({ key: 'produces' }, `partition template from the caller's default: ${defaults.partition}`);
  } else if (draft.produces.partition === undefined) {
    log.note({ key: 'produces' }, 'the source names no partition layout: the gate expects dt={ds}; set produces.partition if drops are laid out otherwise');
  }
}

/** A lag limit needs the column whose newest value is compared with now; one is chosen only when it is plain which. */
function fillFreshness(draft: Draft, log: ImportLog): void {
  const sla = draft.sla;
  if (!sla || (sla.max_lag_hours === undefined && sla.warn_lag_hours === undefined) || sla.freshness_column !== undefined) return;
  const temporal = draft.schema.columns.filter((c) => /^(timestamp|timestamp_ntz|date)$/.test(c.type));
  const named = temporal.filter((c) => FRESHNESS_NAMES.test(c.name));
  const chosen = temporal.length === 1 ? temporal[0] : named.length === 1 ? named[0] : undefined;
  if (chosen) {
    sla.freshness_column = chosen.name;
    log.placeholder('', null, { key: 'sla' }, `the source does not say which column the freshness limit is measured on; "${chosen.name}" is written: check sla.freshness_column`);
    return;
  }
  const hours = sla.max_lag_hours ?? sla.warn_lag_hours;
  delete sla.max_lag_hours;
  delete sla.warn_lag_hours;
  if (Object.keys(sla).length === 0) delete draft.sla;
  log.placeholder('', null, { key: 'sla' }, `the source promises freshness within ${hours} hours but names no timestamp column to measure it on; add sla: { max_lag_hours: ${hours}, freshness_column: <column> }`);
}
