import { warmPageCache } from './bench-data.js';
import { runsOn, type Engine, type EngineId } from './bench-engines.js';
import { measure, type Measurement } from './measure-process.js';
import type { Shape } from './shape-list.js';
import { expectedVerdict, verdictDifference, type Verdict } from './violation-set.js';

/**
 * Runs the engines over one shape, alternating run by run (gate, DuckDB, gate, DuckDB, ...), so a
 * noisy moment on the shared machine hits both rather than one. With more than one table (the
 * engines pinned to 2 cores, to 1 core), each run goes through every table in turn, so the tables
 * alternate too. Every run's verdict is compared with the other engine's of the same table in the
 * same run and with what the shape's data has planted. An engine that timed out on a shape is
 * not started on it again in that table: another 300 s would say nothing new.
 */
export interface ShapeRun {
  readonly shape: Shape;
  readonly measured: ReadonlyMap<EngineId, readonly Measurement[]>;
  /** Each engine's verdict in its last finished run. */
  readonly verdicts: ReadonlyMap<EngineId, Verdict>;
  /** Disagreements, differences from the plants, timeouts and errors, each with the runs it happened in. */
  readonly problems: readonly string[];
}

/** The engines of one table, all pinned alike; `label` names the table in progress lines. */
export interface EngineTable {
  readonly label: string;
  readonly engines: readonly Engine[];
}

interface RunState {
  readonly measured: Map<EngineId, Measurement[]>;
  readonly verdicts: Map<EngineId, Verdict>;
  /** Each problem's text, with the runs it happened in. */
  readonly problems: Map<string, number[]>;
}

interface RunAt { readonly run: number; readonly runs: number; readonly timeoutMs: number; readonly table: string }

/** One ShapeRun per table, in the tables' order. */
export function runShape(shape: Shape, tables: readonly EngineTable[], runs: number, timeoutMs: number): ShapeRun[] {
  warmPageCache(shape);
  const states: RunState[] = tables.map(() => ({ measured: new Map(), verdicts: new Map(), problems: new Map() }));
  const expected = expectedVerdict(shape.rows, shape.expected);
  for (let run = 1; run <= runs; run++) {
    for (const [index, table] of tables.entries()) runTable(shape, table.engines, expected, { run, runs, timeoutMs, table: table.label }, states[index]!);
  }
  return states.map((state) => ({
    shape, measured: state.measured, verdicts: state.verdicts,
    problems: [...state.problems].map(([text, at]) => `${text} [run${at.length > 1 ? 's' : ''} ${at.join(', ')}]`),
  }));
}

/** One run of every engine of one table, and the comparisons of its verdicts. */
function runTable(shape: Shape, list: readonly Engine[], expected: Verdict, at: RunAt, state: RunState): void {
  const thisRun = new Map<EngineId, Verdict>();
  for (const engine of list.filter((e) => runsOn(e, shape))) {
    const verdict = runEngine(engine, shape, at, state);
    if (!verdict) continue;
    thisRun.set(engine.id, verdict);
    const off = verdictDifference(verdict, expected);
    if (off) note(state, `${engine.name} vs the planted expectation: ${off}`, at.run);
  }
  const [gate, duckdb] = [thisRun.get('gate'), thisRun.get('duckdb')];
  const differ = gate && duckdb ? verdictDifference(gate, duckdb) : undefined;
  if (differ) note(state, `contract-gate vs DuckDB: ${differ}`, at.run);
}

/** One process of one engine: its measurement recorded, and its verdict when it has one and finished. */
function runEngine(engine: Engine, shape: Shape, at: RunAt, state: RunState): Verdict | undefined {
  const earlier = state.measured.get(engine.id) ?? [];
  if (earlier.some((m) => m.outcome === 'timeout')) return undefined;
  process.stderr.write(`  ${shape.id}: run ${at.run}/${at.runs}, ${engine.name}${at.table ? ` (${at.table})` : ''}...\n`);
  const m = measure(engine.args(shape), engine.okStatus, at.timeoutMs, undefined, engine.pin);
  state.measured.set(engine.id, [...earlier, m]);
  if (m.outcome !== 'ok') {
    note(state, `${engine.name}: ${m.outcome.toUpperCase()} (${reason(m.detail)})`, at.run);
    return undefined;
  }
  if (!engine.verdict) {
    // The plain decode has no verdict, only the rows it read.
    const { rows } = JSON.parse(m.stdout) as { rows: number };
    if (rows !== shape.rows) note(state, `${engine.name} counted ${rows} rows, not ${shape.rows}`, at.run);
    return undefined;
  }
  const verdict = engine.verdict(m);
  state.verdicts.set(engine.id, verdict);
  return verdict;
}

function note(state: RunState, text: string, run: number): void {
  state.problems.set(text, [...(state.problems.get(text) ?? []), run]);
}

/** Why a process failed, in one line: its exit status and its error message (else its last line of stderr). */
function reason(detail: string): string {
  const exit = /^exit \S+:/.exec(detail)?.[0] ?? '';
  const lines = detail.slice(exit.length).split('\n').map((l) => l.trim()).filter(Boolean);
  return `${exit} ${(lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.at(-1) ?? '').slice(0, 300)}`.trim();
}
