import { parseContract } from '../../lib/contract/load-contract.js';
import { runChecksInParallel } from '../../lib/parallel/parallel-checks.js';
import { localPartitionFile } from '../../lib/storage/local-files.js';
import { statSync } from 'node:fs';
for (const [format, type, file] of [['csv', 'timestamp', '0000'], ['jsonl', 'timestamp', '0000'], ['csv', 'date', '0001'], ['csv', 'string', '0000']] as const) {
  const yaml = `name: repro\nversion: 1.0.0\nowner: { team: t, notify: [a@example.com] }\nproduces: { format: ${format}, partition: "dt={ds}" }\nschema:\n  grain: []\n  columns:\n    - { name: id, type: int64 }\n    - { name: at, type: ${type}, references: { contract: customers, column: customer_id } }\n`;
  const { contract, problems } = parseContract(yaml, 'repro.v1.yaml');
  if (!contract) throw new Error(JSON.stringify(problems));
  const path = `/tmp/repro/dt=2026-11-30/part-${file}.${format}`;
  const facts = { references: new Map([['at', { source: 'test', keys: new Set<string>() }]]) };
  const run = await runChecksInParallel(contract, Date.parse('2026-11-30T06:00:00Z'), [localPartitionFile(path, statSync(path).size)], { workers: 1, facts });
  console.log(format, type, run.report.violations.map((v) => `${v.rule}:${v.column} ${v.count}`));
}
