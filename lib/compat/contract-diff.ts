/**
 * The result of comparing two versions of a contract. The JSON field names are part of the CLI's
 * output contract (`diff --format json`), hence snake_case and a fixed key order.
 */

/** A fixed vocabulary: CI scripts match on these ids, so a new one is a new release of the tool. */
export const CHANGE_IDS = [
  'column_removed',
  'column_added',
  'type_widened',
  'type_changed',
  'became_required',
  'became_optional',
  'default_changed',
  'enum_value_removed',
  'enum_value_added',
  'range_tightened',
  'range_loosened',
  'pattern_changed',
  'length_tightened',
  'length_loosened',
  'unique_added',
  'unique_removed',
  'reference_added',
  'reference_removed',
  'reference_changed',
  'reference_row_added',
  'reference_row_removed',
  'reference_row_changed',
  'severity_tightened',
  'severity_loosened',
  'tolerance_tightened',
  'tolerance_loosened',
  'grain_changed',
  'partition_changed',
  'sla_changed',
  'status_changed',
  'description_changed',
  'version_decreased',
] as const;

export type ChangeId = (typeof CHANGE_IDS)[number];

/**
 * `flagged`: harmless to readers but worth a minor bump and a look; `cosmetic`: wording only
 * (a patch); `error`: the new version cannot be right whatever changed.
 */
export type ChangeClass = 'breaking' | 'non-breaking' | 'flagged' | 'cosmetic' | 'error';

export type Bump = 'major' | 'minor' | 'patch' | 'none';

export type DeclaredBump = Bump | 'version_decreased';

export interface Change {
  readonly change: ChangeId;
  /** The column the change is about; null for a change of the whole dataset. */
  readonly column: string | null;
  readonly class: ChangeClass;
  readonly message: string;
  /** Teams of `consumers` the change hits; absent when it hits none. */
  readonly consumers?: readonly string[];
}

export interface ContractDiff {
  readonly changes: readonly Change[];
  readonly required_bump: Bump;
  readonly declared_bump: DeclaredBump;
  readonly ok: boolean;
}

export type CompatMode = 'backward' | 'forward' | 'full' | 'none';

/** A change before consumers are attached: what the column comparisons produce. */
export type RawChange = Omit<Change, 'consumers'>;

export function change(id: ChangeId, column: string | null, cls: ChangeClass, message: string): RawChange {
  return { change: id, column, class: cls, message };
}

/**
 * Accepting more values (a new enum value, a wider range or type) keeps old data valid, which is
 * all `backward` promises; `forward` and `full` also promise old readers can read new data, and a
 * value they never allowed breaks that.
 */
export function loosenedClass(mode: CompatMode): ChangeClass {
  return mode === 'forward' || mode === 'full' ? 'breaking' : 'non-breaking';
}

/** Why a loosening is or is not breaking, so the reader of a CI log need not know the modes. */
export function loosenedWhy(mode: CompatMode): string {
  return loosenedClass(mode) === 'breaking'
    ? `readers of the old version may now get values they reject (compat.mode ${mode})`
    : 'old data stays valid';
}
