import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { referenceKey } from '../../lib/checks/plan-facts.js';
import { validatePartition } from '../../lib/checks/validate-partition.js';
import { decimalFromText } from '../../lib/contract/exact-value.js';
import { contractFrom, counts, memoryFile } from '../fixtures/partition.js';
import { queryRows, sqlString } from '../writers/duckdb-session.js';
import { useDuckDBScratch } from '../writers/duckdb-scratch.js';

/**
 * `references` over values finer than a double: microsecond timestamps and 20-digit decimals,
 * written by DuckDB. The key set is spelled as the lake's reader spells the referenced column
 * (referenceKey); DuckDB's anti-join over the same values is the oracle.
 */
const session = useDuckDBScratch('cg-references-');

beforeAll(async () => {
  await session.connection.run(`CREATE TABLE t AS SELECT i, TIMESTAMPTZ '2026-11-29 10:00:00+00' + (i * 1001) * INTERVAL 1 MICROSECOND AS seen_at,
    ('1234567890123456.' || lpad(i::VARCHAR, 4, '0'))::DECIMAL(20,4) AS amount FROM range(2000) r(i)`);
});

const contract = contractFrom(`
name: visits
version: 1.0.0
owner: { team: web, notify: [web@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  columns:
    - { name: seen_at, type: timestamp, references: { contract: sessions, column: started_at } }
    - { name: amount, type: "decimal(20,4)", references: { contract: payments, column: amount } }
`);

describe('references over microsecond timestamps and long decimals', () => {
  it('counts every value missing from the referenced keys, as DuckDB counts them', async () => {
    const path = session.path('visits.parquet');
    await session.connection.run(`COPY (SELECT seen_at, amount FROM t) TO ${sqlString(path)} (FORMAT parquet)`);
    // The referenced side holds the even rows: the odd ones, most of them between two milliseconds, are missing.
    const kept = await queryRows(session.connection, 'SELECT epoch_us(seen_at)::VARCHAR AS us, amount::VARCHAR AS amount FROM t WHERE i % 2 = 0');
    const timeKeys = new Set(kept.map((r) => referenceKey(decimalFromText(`${BigInt(r.us as string) / 1000n}.${String(BigInt(r.us as string) % 1000n).padStart(3, '0')}`))));
    const amountKeys = new Set(kept.map((r) => referenceKey(decimalFromText(r.amount as string))));
    const facts = { references: new Map([['seen_at', { source: 'test', keys: timeKeys }], ['amount', { source: 'test', keys: amountKeys }]]) };
    const report = await validatePartition(buildCheckPlan(contract, Date.parse('2026-11-30T12:00:00Z'), facts), [memoryFile('visits.parquet', new Uint8Array(readFileSync(path)))]);
    const missing = async (column: string) => (await queryRows(session.connection, `SELECT count(*)::INTEGER AS n FROM t WHERE ${column} NOT IN (SELECT ${column} FROM t WHERE i % 2 = 0)`))[0]!.n;
    expect(counts(report)).toEqual({ 'references:seen_at': await missing('seen_at'), 'references:amount': await missing('amount') });
  });
});
