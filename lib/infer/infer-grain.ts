import type { Choice, RunnerUp } from './choice.js';
import type { DeclaredKey } from './declared-keys.js';
import { count } from './infer-column.js';
import { compareKeys, keyView, PAIR_COLUMNS, TRIPLE_COLUMNS, type CompositeRound, type KeyView } from './key-candidates.js';
import type { KeyFailure, KeyResult } from './key-tracker.js';
import type { ProposedColumn } from './proposal.js';

/** Everything the key search found: each candidate with where it failed, if it did. */
export interface KeySearch {
  readonly results: readonly KeyResult[];
  readonly declared: readonly DeclaredKey[];
  readonly rounds: readonly CompositeRound[];
  /** The tracker's bound on hashes held at once. */
  readonly budget: number;
}

type ColumnsByName = ReadonlyMap<string, { column: ProposedColumn; index: number }>;

/** The unique keys, best first, without those holding a smaller unique key (they add nothing). */
export function rankedKeys(search: KeySearch, columns: readonly ProposedColumn[]): KeyView[] {
  const byName: ColumnsByName = new Map(columns.map((c, i) => [c.name, { column: c, index: i }]));
  const views = search.results.filter((r) => !r.failure).flatMap((r) => keyView(r.columns, byName, search.declared) ?? []);
  const minimal = views.filter((v) => v.declared || !views.some((o) => o.columns.length < v.columns.length && o.columns.every((c) => v.columns.includes(c))));
  return minimal.sort(compareKeys);
}

/**
 * Picks the grain (see keyRank in key-candidates.ts): a declared key, unless a timestamp or float
 * is part of it; else the smallest key with id-like columns; a key with a timestamp or float only
 * when nothing else is unique, with a warning unless a writer declared it. Says
 * why, and lists the candidates it passed over and the id-like columns that were no key.
 */
export function chooseGrain(search: KeySearch, columns: readonly ProposedColumn[], labels: readonly string[]): { grain: string[]; choice: Choice } {
  const byName: ColumnsByName = new Map(columns.map((c, i) => [c.name, { column: c, index: i }]));
  const [best, ...others] = rankedKeys(search, columns);
  const n = labels.length;
  const missed = nearMisses(search, byName, labels, best);
  const searched = searchNote(search);
  if (!best) {
    const tried = ['single column', 'single column or pair of columns', 'single column, pair or triple of columns'][search.rounds.length];
    const why = `no ${tried} tried is unique and non-null in every sample: the samples show no key, so the contract declares none`;
    return { grain: [], choice: { label: 'grain', why, runnersUp: missed, search: searched ?? 'every column alone' } };
  }
  const choice: Choice = {
    label: 'grain',
    chosen: best.columns.join(', '),
    why: chosenWhy(best, byName, n),
    ...(!best.declared && best.chance ? { warning: chanceWarning(best, byName) } : {}),
    runnersUp: runnersUp(others, missed, (key) => lostWhy(key, best, byName, n)),
    ...(searched ? { search: searched } : {}),
  };
  return { grain: [...best.columns], choice };
}

/**
 * Other single columns that were unique first (a user looks for them), then the declared keys
 * and id-like columns that were not unique (the keys a user expects, and why not), then the
 * other composites, which a wide table can have many of.
 */
function runnersUp(others: readonly KeyView[], missed: readonly RunnerUp[], why: (key: KeyView) => string): RunnerUp[] {
  const lost = (keys: readonly KeyView[]) => keys.map((key) => ({ name: key.columns.join(' + '), why: why(key) }));
  return [...lost(others.filter((k) => k.columns.length === 1)), ...missed, ...lost(others.filter((k) => k.columns.length > 1))];
}

function chosenWhy(key: KeyView, byName: ColumnsByName, n: number): string {
  const everywhere = `unique${key.columns.length > 1 ? ' together' : ''} and non-null in ${eachSample(n)} (checked per partition, as the gate checks it)`;
  if (key.declared) return `${declaredText(key.declared)}, and ${everywhere}`;
  if (key.chance) return `${everywhere}, and nothing else is`;
  if (key.idParts === 0) return `${everywhere}; no id-like column or key is, and ${key.columns.length === 1 ? 'its name does not say it is a key' : 'no column name says it is a key'}: confirm that it is one`;
  if (key.columns.length === 1) return `${idLikeText(byName.get(key.columns[0]!)!.column)}, ${everywhere}`;
  const ids = key.columns.filter((_, i) => key.kinds[i] === 'id');
  const others = key.columns.filter((_, i) => key.kinds[i] !== 'id');
  const idText = others.length === 0 ? `${ids.length === 2 ? 'both' : 'all'} id-like` : `${ids.join(', ')} id-like, with ${others.join(', ')}`;
  return `${idText}; ${everywhere}, and no smaller key with an id-like column is`;
}

function lostWhy(key: KeyView, best: KeyView, byName: ColumnsByName, n: number): string {
  const unique = n === 1 ? 'unique in the only sample' : `unique in ${n} of ${n} samples`;
  if (key.chance && !best.chance) return `${unique}, but ${chanceText(key, byName)}: unique by chance`;
  if (best.declared && !key.declared) return `${unique}, but ${best.columns.join(' + ')} is the declared key`;
  if (key.idParts === 0 && best.idParts > 0) return `${unique}, but ${key.columns.length === 1 ? 'its name does not say it is a key' : 'no column of it has an id-like name'}`;
  if (key.columns.length > best.columns.length) return `${unique}, but ${key.columns.length} columns where ${best.columns.length} will do`;
  if (key.idParts < key.columns.length && best.idParts === best.columns.length) {
    const plain = key.columns.filter((_, i) => key.kinds[i] !== 'id');
    return `${unique}, but ${plain.join(', ')} ${plain.length === 1 ? 'is' : 'are'} not id-like`;
  }
  return `${unique} too; ${best.columns.join(' + ')} comes first among the columns`;
}

/** Declared keys and id-like columns that were not unique: the keys a user expects, and why not. */
function nearMisses(search: KeySearch, byName: ColumnsByName, labels: readonly string[], best: KeyView | undefined): RunnerUp[] {
  const misses: RunnerUp[] = [];
  for (const result of search.results) {
    if (!result.failure) continue;
    const declared = search.declared.find((d) => d.columns.join('\u0000') === result.columns.join('\u0000'));
    const column = result.columns.length === 1 ? byName.get(result.columns[0]!)?.column : undefined;
    if (!declared && column?.idLike === undefined) continue;
    const intro = declared ? declaredText(declared) : idLikeText(column!);
    const part = best?.columns.includes(result.columns[0]!) && result.columns.length === 1 ? ': part of the key, not a key alone' : '';
    misses.push({ name: result.columns.join(' + '), why: `${intro}, but ${failureText(result.failure, labels, search.budget)}${part}` });
  }
  return misses;
}

function failureText(failure: KeyFailure, labels: readonly string[], budget: number): string {
  const where = `${labels[failure.partition] ?? `sample ${failure.partition + 1}`} (sample ${failure.partition + 1} of ${labels.length})`;
  switch (failure.reason) {
    case 'repeat': return `a value repeats within ${where}`;
    case 'null': return `it has a null in ${where}`;
    case 'missing': return `a file of ${where} lacks it`;
    case 'budget': return `it was set aside in ${where} to bound memory (at most ${budget.toLocaleString('en-US')} key hashes at once, the likeliest keys kept)`;
  }
}

/** How far the search went, when it went past single columns or a bound left candidates out. */
function searchNote(search: KeySearch): string | undefined {
  const set = search.results.filter((r) => r.failure?.reason === 'budget').length;
  if (search.rounds.length === 0 && set === 0) return undefined;
  const parts = ['every column alone'];
  for (const round of search.rounds) {
    const cap = round.size === 2 ? PAIR_COLUMNS : TRIPLE_COLUMNS;
    const left = round.left > 0 ? `; ${count(round.left, 'more column')} not tried (at most ${cap}, id-like first)` : '';
    parts.push(`${count(round.keys.length, round.size === 2 ? 'pair' : 'triple')} of ${round.parts.join(', ')}${left}`);
  }
  if (set > 0) parts.push(`${count(set, 'candidate')} set aside to hold at most ${search.budget.toLocaleString('en-US')} key hashes`);
  return parts.join('; then ');
}

function chanceWarning(key: KeyView, byName: ColumnsByName): string {
  const what = key.columns.length === 1 ? `${key.columns[0]} is ${chanceText(key, byName)}` : chanceText(key, byName);
  return `${what}, unique in these samples most likely by chance, and nothing better was: declare the real key, or remove the grain, before relying on this contract`;
}

/** `a timestamp`, `a float`; for a composite, `pickup_at is a timestamp`. */
function chanceText(key: KeyView, byName: ColumnsByName): string {
  const at = key.kinds.findIndex((k) => k === 'time' || k === 'measure');
  const name = key.columns[at]!;
  const kind = byName.get(name)!.column.type.kind;
  const noun = kind === 'decimal' ? 'a decimal' : kind.startsWith('float') ? 'a float' : 'a timestamp';
  return key.columns.length === 1 ? noun : `${name} is ${noun}`;
}

function declaredText(key: DeclaredKey): string {
  return `declared by ${key.source}${key.files < key.of ? ` in ${key.files} of ${key.of} files` : ''}`;
}

function idLikeText(column: ProposedColumn): string {
  return column.idLike === 'name' ? 'an id-like name' : `every value a ${column.idLike}`;
}

function eachSample(n: number): string {
  return n === 1 ? 'the only sample' : `each of ${n} samples`;
}
