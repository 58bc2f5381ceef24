import type { Contract } from '../contract/model.js';
import type { Change, RawChange } from './contract-diff.js';

interface Readers {
  /** Teams that list the column. */
  readonly named: readonly string[];
  /** Teams that listed no columns at all, so may read any. */
  readonly unlisted: readonly string[];
}

/**
 * Names who a change hits. A column's readers come from both versions: a consumer of a removed
 * column can only have listed it in the old one, where the column still existed.
 */
export function withConsumers(raw: RawChange, old: Contract, next: Contract): Change {
  if (raw.class === 'cosmetic' || raw.class === 'error' || raw.change === 'column_added') return raw;
  const teams = mergedConsumers(old, next);
  if (raw.column === null) return datasetWide(raw, [...teams.keys()]);
  const readers = readersOf(raw.column, teams);
  const hit = [...readers.named, ...readers.unlisted];
  const message = `${raw.message}; ${describeReaders(readers)}`;
  return hit.length ? { ...raw, message, consumers: hit } : { ...raw, message };
}

function datasetWide(raw: RawChange, teams: string[]): Change {
  if (teams.length === 0) return { ...raw, message: `${raw.message}; no consumer is registered` };
  return { ...raw, message: `${raw.message}; hits every consumer: ${teams.join(', ')}`, consumers: teams };
}

/** Team → every column it listed in either version, in registration order. */
function mergedConsumers(old: Contract, next: Contract): Map<string, Set<string>> {
  const teams = new Map<string, Set<string>>();
  for (const consumer of [...old.consumers, ...next.consumers]) {
    const columns = teams.get(consumer.team) ?? new Set<string>();
    consumer.columns.forEach((c) => columns.add(c));
    teams.set(consumer.team, columns);
  }
  return teams;
}

function readersOf(column: string, teams: ReadonlyMap<string, ReadonlySet<string>>): Readers {
  const entries = [...teams];
  return {
    named: entries.filter(([, columns]) => columns.has(column)).map(([team]) => team),
    unlisted: entries.filter(([, columns]) => columns.size === 0).map(([team]) => team),
  };
}

function describeReaders({ named, unlisted }: Readers): string {
  const parts: string[] = [];
  if (named.length) parts.push(`read by ${named.join(', ')}`);
  if (unlisted.length) parts.push(`possibly read by ${unlisted.join(', ')} (${unlisted.length === 1 ? 'lists' : 'list'} no columns)`);
  return parts.length ? parts.join('; ') : 'no registered consumer reads it';
}
