import type { CheckRun } from '../../lib/checks/validate-partition.js';
import type { ReportStatus, ToleranceOutcome } from '../../lib/report/report.js';

/**
 * What both engines are compared on: the verdict, the row counts, each rule's count and severity
 * per column, keyed `rule` or `rule:column` (counts of one rule and column added up), the row
 * tolerance's outcome, the rows withheld per file, and the notes a reader must see.
 */
export interface Outcome {
  readonly status: ReportStatus;
  readonly rows: number;
  readonly fileRows: readonly number[];
  readonly counts: Readonly<Record<string, number>>;
  /** `mixed` when findings of one key carry both severities. */
  readonly severities: Readonly<Record<string, 'error' | 'warning' | 'mixed'>>;
  readonly tolerance?: ToleranceOutcome;
  /** By file name: the 0-based rows withheld, when the batch is published without them. */
  readonly withheld?: Readonly<Record<string, readonly number[]>>;
  readonly notes: readonly string[];
}

export function countKey(rule: string, column: string | undefined): string {
  return column === undefined ? rule : `${rule}:${column}`;
}

export const fileName = (path: string) => path.split('/').pop()!;

export function outcomeOfRun(run: CheckRun): Outcome {
  const { report } = run;
  const counts: Record<string, number> = {};
  const severities: Record<string, 'error' | 'warning' | 'mixed'> = {};
  for (const v of report.violations) {
    const key = countKey(v.rule, v.column);
    counts[key] = (counts[key] ?? 0) + v.count;
    severities[key] = severities[key] === undefined || severities[key] === v.severity ? v.severity : 'mixed';
  }
  const withheld = run.withheld && Object.fromEntries(run.withheld.map((w) => [fileName(report.files[w.fileIndex]?.path ?? `file ${w.fileIndex}`), w.list.rows]));
  return {
    status: report.status,
    rows: report.rows,
    fileRows: report.files.map((f) => f.rows),
    counts,
    severities,
    ...(report.tolerance ? { tolerance: report.tolerance } : {}),
    ...(withheld ? { withheld } : {}),
    notes: (report.notes ?? []).map(normalNote),
  };
}

/** The notes as the oracle words them: a skipped history rule, a column some file lacks. */
function normalNote(note: string): string {
  if (note.startsWith('volume_vs_history was skipped')) return 'volume_vs_history skipped';
  const absent = /^column (.+) is not in (?:the file|all \d+ files|\d+ of \d+ files.*): its rows were read as /s.exec(note);
  return absent ? `absent ${absent[1]}` : note;
}

/** Every difference between the expected (oracle) and actual (contract-gate) outcome, in words. */
export function differences(expected: Outcome, actual: Outcome): string[] {
  const out: string[] = [];
  const differ = (what: string, e: string, a: string) => e !== a && out.push(`${what}: DuckDB ${e}, contract-gate ${a}`);
  differ('status', expected.status, actual.status);
  differ('rows', String(expected.rows), String(actual.rows));
  differ('file rows', `[${expected.fileRows.join(', ')}]`, `[${actual.fileRows.join(', ')}]`);
  const keys = [...new Set([...Object.keys(expected.counts), ...Object.keys(actual.counts)])].sort();
  for (const key of keys) {
    const [e, a] = [expected.counts[key] ?? 0, actual.counts[key] ?? 0];
    if (e !== a) out.push(`${key}: DuckDB ${e}, contract-gate ${a}`);
    else differ(`severity of ${key}`, expected.severities[key] ?? 'none', actual.severities[key] ?? 'none');
  }
  differ('tolerance', toleranceText(expected.tolerance), toleranceText(actual.tolerance));
  out.push(...withheldDifferences(expected.withheld ?? {}, actual.withheld ?? {}));
  differ('notes', JSON.stringify([...expected.notes].sort()), JSON.stringify([...actual.notes].sort()));
  return out;
}

function toleranceText(t: ToleranceOutcome | undefined): string {
  return t ? `${t.invalid_rows} invalid of ${t.allowed_rows} allowed (${t.tolerance}), ${t.withheld ? 'withheld' : 'not withheld'}` : 'none';
}

/** The withheld rows as sets per file: the rows only one engine withholds, a few of them named. */
function withheldDifferences(expected: Readonly<Record<string, readonly number[]>>, actual: Readonly<Record<string, readonly number[]>>): string[] {
  const out: string[] = [];
  for (const file of [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()) {
    const [e, a] = [new Set(expected[file] ?? []), new Set(actual[file] ?? [])];
    const onlyE = [...e].filter((row) => !a.has(row));
    const onlyA = [...a].filter((row) => !e.has(row));
    const few = (rows: number[]) => `${rows.length} (${rows.slice(0, 8).join(', ')}${rows.length > 8 ? ', …' : ''})`;
    if (onlyE.length > 0 || onlyA.length > 0) out.push(`withheld rows of ${file}: only DuckDB ${few(onlyE)}, only contract-gate ${few(onlyA)}`);
  }
  return out;
}
