/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), the dialect people
 * already write: `*`, lists, ranges and steps, day-of-week 0-7 with 0 and 7 both Sunday, and the
 * classic rule that when both day fields are restricted, either may match.
 */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  readonly dayOfMonthRestricted: boolean;
  readonly dayOfWeekRestricted: boolean;
}

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

/** Parses an expression, or says what is wrong with it. */
export function parseCron(expression: string): CronSchedule | { error: string } {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return { error: `a cron expression has 5 fields (minute hour day-of-month month day-of-week), "${expression}" has ${parts.length}` };
  const sets: Set<number>[] = [];
  for (const [i, field] of FIELDS.entries()) {
    const parsed = parseField(parts[i]!, field.min, field.max);
    if (typeof parsed === 'string') return { error: `cron ${field.name} "${parts[i]}": ${parsed}` };
    sets.push(parsed);
  }
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = sets as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (daysOfWeek.delete(7)) daysOfWeek.add(0);
  return { minutes, hours, daysOfMonth, months, daysOfWeek, dayOfMonthRestricted: parts[2] !== '*', dayOfWeekRestricted: parts[4] !== '*' };
}

function parseField(text: string, min: number, max: number): Set<number> | string {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const match = /^(\*|\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(item);
    if (!match) return `"${item}" is not a number, range, list or step`;
    const start = match[1] === '*' ? min : Number(match[1]);
    const end = match[2] !== undefined ? Number(match[2]) : match[1] === '*' || match[3] !== undefined ? max : start;
    const step = match[3] !== undefined ? Number(match[3]) : 1;
    if (start < min || end > max || start > end || step < 1) return `values must lie in ${min}-${max}, ranges must ascend and steps be positive`;
    for (let value = start; value <= end; value += step) values.add(value);
  }
  return values;
}

/** Whether a local calendar day is one the schedule fires on. */
export function cronMatchesDay(cron: CronSchedule, day: { month: number; dayOfMonth: number; dayOfWeek: number }): boolean {
  if (!cron.months.has(day.month)) return false;
  const byMonthDay = cron.daysOfMonth.has(day.dayOfMonth);
  const byWeekDay = cron.daysOfWeek.has(day.dayOfWeek);
  if (cron.dayOfMonthRestricted && cron.dayOfWeekRestricted) return byMonthDay || byWeekDay;
  return byMonthDay && byWeekDay;
}
