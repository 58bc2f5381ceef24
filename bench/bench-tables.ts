import { engines, pinTo } from './bench-engines.js';
import type { Knobs } from './bench-knobs.js';
import { printShapeTable, shapeResult, targetMark, type ShapeResult } from './bench-report.js';
import { runShape, type EngineTable } from './bench-runs.js';

/**
 * The bench's tables: one per core count of BENCH_CORES (2 and 1 by default), each engine's
 * process pinned to that many cores and DuckDB running that many threads. One core is what a
 * 1,769 MB Lambda gets. Every shape runs through all tables run by run (bench-runs.ts), so a busy
 * moment of the machine falls on every table alike.
 */
export interface TableResult {
  readonly cores: number;
  readonly label: string;
  readonly shapes: readonly ShapeResult[];
}

export function tableLabel(cores: number): string {
  return `${cores} core${cores === 1 ? '' : 's'}: each engine's process under \`${pinTo(cores).join(' ')}\`, DuckDB \`SET threads = ${cores}\``;
}

export function runTables(dist: string, knobs: Knobs): TableResult[] {
  const tables: EngineTable[] = knobs.cores.map((cores) => ({ label: `${cores} core${cores === 1 ? '' : 's'}`, engines: engines(dist, knobs.workers, knobs.plain, cores) }));
  const fromDist = knobs.cores.map((cores) => engines('dist', knobs.workers, false, cores));
  const byTable: ShapeResult[][] = knobs.cores.map(() => []);
  for (const shape of knobs.shapes) {
    const runs = runShape(shape, tables, knobs.runs, knobs.timeoutMs);
    for (const [index, run] of runs.entries()) byTable[index]!.push(shapeResult(run, tables[index]!.engines, fromDist[index]!));
  }
  return knobs.cores.map((cores, index) => ({ cores, label: tableLabel(cores), shapes: byTable[index]! }));
}

export function printTables(tables: readonly TableResult[]): void {
  for (const table of tables) {
    console.log(`\n${table.label}\n`);
    printShapeTable(table.shapes);
  }
}

/** Each table's per-shape targets, a block a table. */
export function printTableTargets(tables: readonly TableResult[]): void {
  for (const table of tables) {
    console.log(`  ${table.cores} core${table.cores === 1 ? '' : 's'}:`);
    for (const r of table.shapes) console.log(`    ${r.id.padEnd(24)} ${r.targets.map((t) => `${targetMark(t)} ${t.name} (${t.value})`).join('; ')}`);
  }
}

/** Every shape's problems, named by shape and table. */
export function tableProblems(tables: readonly TableResult[]): string[] {
  return tables.flatMap((table) => table.shapes.flatMap((r) => r.problems.map((p) => `${r.id} (${table.cores} core${table.cores === 1 ? '' : 's'}): ${p}`)));
}
