/**
 * Wall-clock time in IANA zones from nothing but `Intl.DateTimeFormat`, so the pure core needs no
 * time-zone library. Instants are epoch milliseconds; local dates are plain year-month-day values
 * whose arithmetic involves no zone at all.
 */

export interface LocalDate {
  readonly year: number;
  /** 1-12 */
  readonly month: number;
  /** 1-31 */
  readonly day: number;
}

export interface LocalDateTime extends LocalDate {
  readonly hour: number;
  readonly minute: number;
}

export interface ZonedTime extends LocalDateTime {
  /** 0 = Sunday ... 6 = Saturday */
  readonly dayOfWeek: number;
}

const DAY = 86_400_000;

// Building a formatter costs far more than using one, and a calendar asks the same zone hundreds of times.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  const cached = formatters.get(zone);
  if (cached) return cached;
  const created = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  formatters.set(zone, created);
  return created;
}

/** The wall clock of an instant, written as if it were a UTC instant: offsets become subtraction. */
function wallClockMs(instant: number, zone: string): number {
  const fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(zone).formatToParts(instant)) {
    if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  return Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
}

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
export function utcOffsetMs(instant: number, zone: string): number {
  // The formatter drops milliseconds, so compare against the instant's whole second.
  return wallClockMs(instant, zone) - (instant - mod(instant, 1000));
}

/** The wall-clock time an instant shows in a zone. */
export function toLocal(instant: number, zone: string): ZonedTime {
  const wall = new Date(wallClockMs(instant, zone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    dayOfWeek: wall.getUTCDay(),
  };
}

/**
 * The instant a zone's clocks show a wall time. A wall time skipped by a spring-forward jump
 * resolves to the same wall time shifted forward by the jump (02:30 becomes 03:30), as cron and
 * schedulers do; a wall time repeated by a fall-back resolves to its first occurrence.
 */
export function fromLocal(local: LocalDateTime, zone: string): number {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // Offsets a day either side bracket any transition near this wall time (no zone changes twice in two days).
  const offsetBefore = utcOffsetMs(wall - DAY, zone);
  const offsetAfter = utcOffsetMs(wall + DAY, zone);
  const early = wall - offsetBefore;
  if (offsetBefore === offsetAfter) return early;
  const late = wall - offsetAfter;
  const candidates = [early, late].filter((instant) => wallClockMs(instant, zone) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: read with the offset from before the jump, the instant lands as far past the jump as the wall time was.
  return early;
}

/** The calendar date `days` days after `date` (negative for before). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const shifted = new Date(dateMs(date) + days * DAY);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: LocalDate): number {
  return new Date(dateMs(date)).getUTCDay();
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  return Math.round((dateMs(to) - dateMs(from)) / DAY);
}

/** YYYY-MM-DD, the partition `ds` format. */
export function formatDate(date: LocalDate): string {
  return `${String(date.year).padStart(4, '0')}-${pad2(date.month)}-${pad2(date.day)}`;
}

/** Two digits, the partition `hh` format. */
export function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

function dateMs(date: LocalDate): number {
  return Date.UTC(date.year, date.month - 1, date.day);
}

function mod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}
