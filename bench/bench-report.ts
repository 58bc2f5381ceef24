import { commandLine, type Engine, type EngineId } from './bench-engines.js';
import type { ShapeRun } from './bench-runs.js';
import { summarise } from './measure-process.js';
import { partitionDir } from './shape-data.js';
import { canonical } from './violation-set.js';

/**
 * Per shape, what the bench reports and stores: each engine's medians, the gate/DuckDB ratios,
 * the verdicts, the targets (reported, not enforced) and, for a shape with problems, the two
 * commands that reproduce it.
 */
const MB = 2 ** 20;
export const TARGETS = { vsDuckdb: 1.0, peakRssMb: 256 } as const;

export interface Target { readonly name: string; readonly value: string; readonly pass: boolean | null }

export interface EngineFigures {
  readonly id: EngineId; readonly name: string; readonly runs: number; readonly failed: number; readonly outcome: string;
  readonly wall_s: number; readonly rows_per_s: number; readonly peak_rss_mb: number; readonly cpu_s: number; readonly walls_s: readonly number[];
}

export interface ShapeResult {
  readonly id: string; readonly label: string; readonly rows: number; readonly contract: string; readonly dir: string;
  readonly engines: readonly EngineFigures[]; readonly vs_duckdb: number; readonly cpu_vs_duckdb: number;
  readonly expected: string; readonly verdicts: Record<string, string>; readonly ok: boolean;
  readonly targets: readonly Target[]; readonly problems: readonly string[]; readonly reproduce: readonly string[];
}

/** `reproduceWith`: the engines as run from dist/ (the bench itself runs a copy that is gone when it exits). */
export function shapeResult(run: ShapeRun, list: readonly Engine[], reproduceWith: readonly Engine[]): ShapeResult {
  const { shape } = run;
  const figures = list.filter((e) => run.measured.has(e.id)).map((e) => engineFigures(e, run));
  const gate = figures.find((f) => f.id === 'gate');
  const duckdb = figures.find((f) => f.id === 'duckdb');
  const vs = (pick: (f: EngineFigures) => number) => (gate && duckdb ? pick(gate) / pick(duckdb) : NaN);
  const verdicts = Object.fromEntries([...run.verdicts].map(([id, v]) => [id, `${v.status}: ${canonical(v.violations) || 'no violations'}`]));
  return {
    id: shape.id, label: shape.label, rows: shape.rows, contract: shape.contract, dir: partitionDir(shape),
    engines: figures, vs_duckdb: vs((f) => f.wall_s), cpu_vs_duckdb: vs((f) => f.cpu_s),
    expected: canonical(shape.expected), verdicts, ok: run.problems.length === 0, targets: targets(shape.wallTargetS, gate, duckdb, vs((f) => f.wall_s)),
    problems: run.problems,
    reproduce: run.problems.length === 0 ? [] : reproduceWith.filter((e) => e.verdict).map((e) => commandLine(e, shape)),
  };
}

function engineFigures(engine: Engine, run: ShapeRun): EngineFigures {
  const list = run.measured.get(engine.id)!;
  const s = summarise(list);
  return {
    id: engine.id, name: engine.name, runs: s.runs, failed: s.failed, outcome: s.outcome,
    wall_s: s.wallMs / 1000, rows_per_s: run.shape.rows / (s.wallMs / 1000), peak_rss_mb: s.peakRssBytes / MB, cpu_s: s.cpuMs / 1000,
    walls_s: list.map((m) => (m.outcome === 'ok' ? Number((m.wallMs / 1000).toFixed(2)) : NaN)),
  };
}

/** A target whose figure is missing (a timeout, a crash) is failed when the gate's, and not applicable when DuckDB's. */
function targets(wallTargetS: number | undefined, gate: EngineFigures | undefined, duckdb: EngineFigures | undefined, vsDuckdb: number): Target[] {
  const gateMissing = !gate || gate.runs === 0 ? (gate?.outcome ?? 'not run').toUpperCase() : undefined;
  const missing = gateMissing ?? (!duckdb || duckdb.runs === 0 ? `DuckDB ${(duckdb?.outcome ?? 'not run').toUpperCase()}` : undefined);
  const check = (name: string, value: () => string, pass: () => boolean, absent: string | undefined): Target =>
    absent === undefined ? { name, value: value(), pass: pass() } : { name, value: absent, pass: gateMissing ? false : null };
  return [
    check(`wall <= ${TARGETS.vsDuckdb.toFixed(1)}x DuckDB`, () => `${vsDuckdb.toFixed(2)}x`, () => vsDuckdb <= TARGETS.vsDuckdb, missing),
    check(`peak RSS <= ${TARGETS.peakRssMb} MB`, () => `${gate!.peak_rss_mb.toFixed(0)} MB`, () => gate!.peak_rss_mb <= TARGETS.peakRssMb, gateMissing),
    ...(wallTargetS === undefined ? [] : [check(`wall < ${wallTargetS} s`, () => `${gate!.wall_s.toFixed(2)} s`, () => gate!.wall_s < wallTargetS, gateMissing)]),
  ];
}

/** PASS, FAIL, or n/a for a target whose figure is missing through no fault of the gate. */
export function targetMark(target: Target): string {
  return target.pass === null ? 'n/a' : target.pass ? 'PASS' : 'FAIL';
}

/** The per-shape table: one line a shape, the gate next to DuckDB (and the plain decode, when it ran). */
export function printShapeTable(results: readonly ShapeResult[]): void {
  const plain = results.some((r) => r.engines.some((e) => e.id === 'plain'));
  const header = ['shape', 'rows', 'gate s', 'DuckDB s', 'gate/DuckDB', 'gate rows/s', 'DuckDB rows/s', 'gate MB', 'DuckDB MB', 'gate CPU s', 'DuckDB CPU s', ...(plain ? ['plain s', 'gate/plain'] : []), 'verdicts', 'targets'];
  const body = results.map((r) => {
    const [gate, duckdb, decode] = (['gate', 'duckdb', 'plain'] as const).map((id) => r.engines.find((e) => e.id === id));
    const vsPlain = gate && decode && gate.runs > 0 && decode.runs > 0 ? `${(gate.wall_s / decode.wall_s).toFixed(2)}x` : '-';
    return [
      r.id, r.rows.toLocaleString('en-US'), wall(gate), wall(duckdb), Number.isNaN(r.vs_duckdb) ? '-' : `${r.vs_duckdb.toFixed(2)}x`,
      rate(gate), rate(duckdb), num(gate?.peak_rss_mb, 0), num(duckdb?.peak_rss_mb, 0), num(gate?.cpu_s, 2), num(duckdb?.cpu_s, 2),
      ...(plain ? [wall(decode), vsPlain] : []),
      r.ok ? 'agree' : 'DIFFER', r.targets.map((t) => `${targetMark(t)} ${t.name.replace(/ DuckDB$/, '')}`).join(', '),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const text = header.length - 2;
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i >= text ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const cells of body) console.log(line(cells));
}

function wall(f: EngineFigures | undefined): string {
  if (!f) return '-';
  if (f.runs === 0) return f.outcome.toUpperCase();
  return `${f.wall_s.toFixed(2)}${f.failed > 0 ? '*' : ''}`;
}

function rate(f: EngineFigures | undefined): string {
  return f && f.runs > 0 ? Math.round(f.rows_per_s).toLocaleString('en-US') : '-';
}

function num(value: number | undefined, digits: number): string {
  return value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits);
}
