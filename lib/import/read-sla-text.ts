import type { Node } from 'yaml';
import { ianaZone, parseClockText } from './clock-text.js';
import type { DraftSla } from './import-draft.js';
import type { ImportContext } from './legacy-shape.js';

export function setSla(c: ImportContext, values: DraftSla): void {
  const defined = Object.entries(values).filter(([, value]) => value !== undefined);
  if (defined.length > 0) c.draft.sla = { ...c.draft.sla, ...Object.fromEntries(defined) };
}

/**
 * A delivery deadline in words (`"06:00"` beside `timezone: UTC`, `"06:00 UTC"`, `"at-least-daily
 * by 04:00 UTC"`) as arrival_by and timezone. `zoneNode` is a separate zone key, when the shape
 * has one; a deadline with no zone anywhere is read in UTC, with a TODO, since the gate needs one.
 */
export function readArrival(c: ImportContext, node: Node | null | undefined, path: string, zoneNode?: Node | null): void {
  const text = c.nodes.text(node);
  if (node === undefined) return;
  const clock = text === undefined ? undefined : parseClockText(text);
  if (!clock) {
    c.log.notEnforced(path, node, { key: 'sla' }, `the deadline "${text ?? '?'}" (sla.arrival_by takes a daily time of day such as "06:00 UTC")`);
    return;
  }
  const zoneText = c.nodes.text(zoneNode);
  const zone = zoneText === undefined ? undefined : /^(utc|gmt|z)$/i.test(zoneText) ? 'UTC' : ianaZone(zoneText);
  if (zoneText !== undefined && zone === undefined) {
    c.log.error(`${path.replace(/[^.]+$/, '')}timezone`, zoneNode, `"${zoneText}" is not an IANA time zone name such as Europe/Berlin or UTC`);
    return;
  }
  const timezone = clock.timezone ?? zone;
  setSla(c, { arrival_by: clock.arrivalBy, timezone: timezone ?? 'UTC' });
  if (timezone === undefined) c.log.placeholder(path, node, { key: 'sla' }, `the deadline "${text ?? ''}" names no time zone: UTC is written; set sla.timezone`);
  else if (text !== clock.arrivalBy) c.log.note({ key: 'sla' }, `arrival_by ${clock.arrivalBy} in ${timezone} is the source's "${text ?? ''}"`);
}

/**
 * Minutes as hours for max_lag_hours and warn_lag_hours, which take fractions: 20 minutes is
 * 20/60 at full precision, so the limit falls on the 20th minute, not a rounding before it.
 */
export function minutesAsHours(minutes: number): number {
  return minutes / 60;
}
