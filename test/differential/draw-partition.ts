import type { DataFormat } from '../../lib/contract/model.js';
import type { LogicalTable } from '../writers/logical-table.js';
import { buildTable } from './build-table.js';
import type { SpecContract } from './contract-spec.js';
import { drawContract } from './draw-contract.js';
import { drawRows, plantDuplicates } from './draw-rows.js';
import { drawSla } from './draw-sla.js';
import { drawLayouts } from './file-layout.js';
import type { Random } from './random-tools.js';

/** A contract and the files of one partition, all drawn from one seed. */
export interface DrawnPartition {
  readonly contract: SpecContract;
  readonly tables: readonly LogicalTable[];
}

export const BASE_NOW = Date.parse('2026-11-30T06:00:00Z');

export function drawPartition(seed: number, format: DataFormat, r: Random): DrawnPartition {
  const now = BASE_NOW + r.between(-86_400, 86_400) * 1000 + r.int(1000);
  const recipe = drawContract(seed, format, now, r);
  const sizes = Array.from({ length: r.weighted([[5, 1], [3, 2], [2, r.between(3, 4)]]) }, () => fileRows(r));
  const rows = sizes.reduce((a, b) => a + b, 0);
  const values = drawRows(recipe.contract, recipe.columns, rows, r);
  const { grain } = recipe.contract;
  if (grain.length > 0) plantDuplicates(values, grain, rows, r);
  for (const column of recipe.contract.columns) if (column.unique) plantDuplicates(values, [column.name], rows, r);
  const layouts = drawLayouts(recipe.contract, sizes.length, r);
  let start = 0;
  const tables = sizes.map((size, f) => buildTable(recipe.contract, values, start, (start += size), layouts[f]!, r));
  return { contract: { ...recipe.contract, sla: drawSla(recipe.contract, tables, r) }, tables };
}

/** Empty files, a few rows, and files that span several of DuckDB's 2,048-row-minimum row groups. */
function fileRows(r: Random): number {
  return r.weighted([[1, 0], [2, r.between(1, 20)], [4, r.between(21, 3000)], [3, r.between(3001, 9000)]]);
}
