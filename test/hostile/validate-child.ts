import { readFileSync } from 'node:fs';
import { contractOfColumns, memoryFile, validate } from '../fixtures/partition.js';

/**
 * Validates one Parquet file in a process of its own and prints, as JSON, what the report says
 * (rule counts and the unreadable message) and the process's peak RSS: `tsx validate-child.ts
 * <file> <column>...`, each column an int64 whose `min: 0` makes its values be decoded.
 */
const [path, ...columns] = process.argv.slice(2);
const bytes = new Uint8Array(readFileSync(path!));
const contract = contractOfColumns('bombs', ...columns.map((name) => `{ name: ${name}, type: int64, min: 0 }`));
const report = await validate(contract, [memoryFile('staging/bomb.parquet', bytes)]);
const unreadable = report.violations.find((v) => v.rule === 'unreadable')?.samples[0]?.value;
const rules = Object.fromEntries(report.violations.map((v) => [v.rule, v.count]));
console.log(JSON.stringify({ rules, unreadable, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
