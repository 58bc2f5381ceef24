import { fileSeed } from '../fuzz/prng.js';
import type { SpecContract } from './contract-spec.js';
import { contractYaml } from './contract-yaml.js';
import type { Drawn } from './draw-seed.js';
import { drawTolerance, wantsTolerance } from './draw-tolerance.js';
import { oracleFindings, type OracleScan } from './oracle.js';
import { loadReferenceKeys, referenceCounts } from './oracle-references.js';
import { invalidRowsByFile, oracleVerdict, type OracleVerdict } from './oracle-tolerance.js';
import { differences, fileName, outcomeOfRun, type Outcome } from './outcome.js';
import { Random } from './random-tools.js';
import { runEngine } from './run-engine.js';
import { sampleDifferences } from './sample-check.js';

export interface Comparison {
  /** The contract as contract-gate read it: with the row tolerance, when the seed has one. */
  readonly yaml: string;
  readonly expected: Outcome;
  readonly differences: readonly string[];
}

/**
 * The oracle's findings, then the row tolerance (aimed at the invalid rows it found, from a
 * stream of the seed's own), the oracle's verdict, contract-gate's run, and every difference.
 * `workers`: run contract-gate once per thread count given instead of the seed's drawn one, each
 * held to the same oracle (a difference names the thread count it happened with).
 */
export async function compareEngines(drawn: Drawn, dir: string, paths: readonly string[], workers?: readonly number[]): Promise<Comparison> {
  const keys = await loadReferenceKeys(drawn.facts.references);
  try {
    const scan = await oracleFindings(drawn.contract, paths, drawn.facts, keys);
    const { contract, verdict } = await judge(drawn, scan);
    const yaml = contractYaml(contract);
    const expected = expectedOutcome(scan, verdict, paths);
    const runs = workers ?? [drawn.engine.workers];
    const found: string[] = [];
    for (const count of runs) {
      const label = workers === undefined ? '' : `[${count} worker${count === 1 ? '' : 's'}] `;
      const engine = { ...drawn.engine, workers: count };
      const run = await runEngine(yaml, `${contract.name}.v1.yaml`, dir, contract.now, engine, drawn.facts).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (run instanceof Error) {
        found.push(`${label}contract-gate threw: ${run.stack ?? run.message}`);
        continue;
      }
      const samples = await sampleDifferences(contract, run.report, paths, scan.views, (view) => referenceCounts(contract, view, keys));
      found.push(...[...differences(expected, outcomeOfRun(run)), ...samples].map((d) => `${label}${d}`));
    }
    return { yaml, expected, differences: found };
  } finally {
    await keys.drop();
  }
}

/** Bulk seeds get no tolerance: their invalid rows run past the 100,000 the gate withholds. */
async function judge(drawn: Drawn, scan: OracleScan): Promise<{ contract: SpecContract; verdict: OracleVerdict }> {
  const r = new Random(fileSeed(drawn.seed, 6));
  if (drawn.bulk || !wantsTolerance(r)) return { contract: drawn.contract, verdict: oracleVerdict(drawn.contract, scan.findings, scan.rows, undefined) };
  const invalid = await invalidRowsByFile(drawn.contract, scan.views);
  const tolerance = drawTolerance(invalid.reduce((sum, rows) => sum + rows.length, 0), scan.rows, r);
  const contract = { ...drawn.contract, tolerance };
  return { contract, verdict: oracleVerdict(contract, scan.findings, scan.rows, invalid) };
}

function expectedOutcome(scan: OracleScan, verdict: OracleVerdict, paths: readonly string[]): Outcome {
  const withheld = verdict.withheld && Object.fromEntries(verdict.withheld.flatMap((rows, i) => (rows.length > 0 ? [[fileName(paths[i]!), rows]] : [])));
  return {
    status: verdict.status,
    rows: scan.rows,
    fileRows: scan.fileRows,
    counts: scan.findings.counts,
    severities: scan.findings.severities,
    ...(verdict.tolerance ? { tolerance: verdict.tolerance } : {}),
    ...(withheld ? { withheld } : {}),
    notes: scan.notes,
  };
}
