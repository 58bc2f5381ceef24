import type { Sla, VolumeVsHistory } from '../contract/model.js';
import { loosenedClass, type CompatMode, type RawChange } from './contract-diff.js';
import { warnNote, weighed } from './rule-weight.js';
import { slaSeverity } from './severity-changes.js';

/**
 * `volume_vs_history` bounds a partition's row count by its history, so it tightens and loosens
 * like a range: a new check, a higher min_ratio or a lower max_ratio may stop a partition the old
 * version published. Another lookback judges against other partitions, which may stop any of
 * them: breaking, as a changed pattern is.
 */
export function volumeChange(old: Sla | undefined, next: Sla | undefined, mode: CompatMode): RawChange[] {
  const [from, to] = [old?.volumeVsHistory, next?.volumeVsHistory];
  if (describeVolume(from) === describeVolume(to)) return [];
  const note = warnNote('volume_vs_history', slaSeverity(old, 'volume_vs_history'), slaSeverity(next, 'volume_vs_history'));
  const text = `sla volume_vs_history ${describeVolume(from)} → ${describeVolume(to)}`;
  if (from && to && from.lookback !== to.lookback) {
    return [weighed('sla_changed', null, 'breaking', text, 'row counts are judged against another history, which may stop a partition the old check let through', note)];
  }
  if (tightens(from, to)) return [weighed('sla_changed', null, 'breaking', text, 'a partition whose row count the old check let through may now be stopped', note)];
  const why = loosenedClass(mode) === 'breaking'
    ? `readers of the old version may now get partitions of a size it stopped (compat.mode ${mode})`
    : 'every partition the old check let through still passes';
  return [weighed('sla_changed', null, loosenedClass(mode), text, why, note)];
}

/**
 * `min_rows`/`max_rows` bound a partition's row count like a range bounds a value: a higher
 * min_rows or a lower max_rows (or one that appears) may stop a partition the old version
 * published; the opposite is a loosening.
 */
export function rowBandChanges(old: Sla | undefined, next: Sla | undefined, mode: CompatMode): RawChange[] {
  return (['min_rows', 'max_rows'] as const).flatMap((rule) => {
    const key = rule === 'min_rows' ? 'minRows' : 'maxRows';
    const [from, to] = [old?.[key], next?.[key]];
    if (from === to) return [];
    const tighter = to !== undefined && (from === undefined || (rule === 'min_rows' ? to > from : to < from));
    const note = warnNote(rule, slaSeverity(old, rule), slaSeverity(next, rule));
    const text = `sla ${rule} ${from ?? 'none'} → ${to ?? 'none'}`;
    if (tighter) return [weighed('sla_changed', null, 'breaking', text, 'a partition whose row count the old version let through may now be stopped', note)];
    const why = loosenedClass(mode) === 'breaking' ? `readers of the old version may now get partitions of a size it stopped (compat.mode ${mode})` : 'every partition the old version let through still passes';
    return [weighed('sla_changed', null, loosenedClass(mode), text, why, note)];
  });
}

/** Whether any partition passing the old check may fail the new one (absent bounds are open). */
function tightens(from: VolumeVsHistory | undefined, to: VolumeVsHistory | undefined): boolean {
  if (!to) return false;
  if (!from) return true;
  return (to.minRatio ?? 0) > (from.minRatio ?? 0) || (to.maxRatio ?? Infinity) < (from.maxRatio ?? Infinity);
}

/** e.g. `{ lookback 14, min_ratio 0.5, max_ratio 2 }`, in the contract's own words. */
export function describeVolume(volume: VolumeVsHistory | undefined): string {
  if (!volume) return 'none';
  const parts = [`lookback ${volume.lookback}`, ...(volume.minRatio === undefined ? [] : [`min_ratio ${volume.minRatio}`]), ...(volume.maxRatio === undefined ? [] : [`max_ratio ${volume.maxRatio}`])];
  return `{ ${parts.join(', ')} }`;
}
