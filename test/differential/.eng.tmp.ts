import { readFileSync } from 'node:fs';
import { runEngine } from '/work/main/test/differential/run-engine.ts';
const D = '/work/main/.cache/differential/run-9428/seed-31143';
const facts = JSON.parse(readFileSync(`${D}/facts.json`, 'utf8'));
const spec = { history: facts.history, references: new Map(Object.entries(facts.references)) };
const run = await runEngine(readFileSync(`${D}/diff_31143.v1.yaml`, 'utf8'), 'diff_31143.v1.yaml', `${D}/dt=2026-11-30`, Date.parse(process.argv[2] ?? '2026-11-30T06:00:00Z'), { workers: 1, odcs: false }, spec as never);
console.log(JSON.stringify(run.report.violations.map((v) => ({ ...v, samples: v.samples.slice(0, 2) })), null, 1), run.report.status, run.report.notes);
