/** A delivery promise read as the gate's clock SLA: a daily deadline and its zone. */
export interface ClockSla {
  readonly arrivalBy: string;
  /** Absent when the text names no zone (the source may give one elsewhere). */
  readonly timezone?: string;
}

/**
 * `06:00`, `06:00 UTC`, `by 06:00 UTC`, `daily by 04:00 UTC`, `at-least-daily by 04:00 UTC`:
 * a time of day, an optional zone, and words that say the deadline is a daily one. Anything else
 * (hourly, weekdays, "6am", two times) is no clock the gate can check without a guess.
 */
const CLOCK = /^\s*(?:(?:at[- ]least[- ])?daily\s+)?(?:by\s+)?(\d{1,2}):([0-5]\d)(?:\s+(\S+))?\s*$/i;

const UTC_NAMES = new Set(['utc', 'gmt', 'z']);

export function parseClockText(text: string): ClockSla | undefined {
  const match = CLOCK.exec(text);
  if (!match?.[1] || !match[2] || Number(match[1]) > 23) return undefined;
  const arrivalBy = `${match[1].padStart(2, '0')}:${match[2]}`;
  const zone = match[3];
  if (zone === undefined) return { arrivalBy };
  const timezone = UTC_NAMES.has(zone.toLowerCase()) ? 'UTC' : ianaZone(zone);
  return timezone === undefined ? undefined : { arrivalBy, timezone };
}

/** A zone name the runtime's time-zone data knows, as the native loader checks it. */
export function ianaZone(name: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name;
  } catch {
    return undefined;
  }
}
