import { describe, expect, it } from 'vitest';
import { coerceFor } from '../../lib/checks/coerce-value.js';
import { parseColumnType } from '../../lib/contract/column-type.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openCsvFile } from '../../lib/formats/csv-file.js';
import { contractFrom, counts, memoryFile, validate } from '../fixtures/partition.js';
import { collectBatches } from '../fixtures/table-files.js';
import { millisWithFraction } from '../../lib/contract/exact-value.js';

/**
 * PostgreSQL's CSV, byte for byte as PostgreSQL 15 wrote it for this table (captured from a
 * real server, not written from memory):
 *
 *   CREATE TABLE t (id bigint, s text, f double precision, r real, d numeric(12,2), b boolean,
 *                   dt date, ts timestamptz, ntz timestamp, bin bytea);
 *   SET TimeZone = 'UTC';          COPY t TO STDOUT WITH CSV HEADER;
 *   SET TimeZone = 'Asia/Kolkata'; COPY t TO STDOUT WITH (FORMAT csv, HEADER true, FORCE_QUOTE *);
 *
 * Rows 1-3 hold values every contract type accepts; rows 4 and 5 hold what PostgreSQL can store
 * and a contract refuses: infinity dates and timestamps, a BC date, a NaN numeric.
 */
const UTC = `id,s,f,r,d,b,dt,ts,ntz,bin
1,a,1.5,1.5,12.34,t,2026-11-29,2026-11-29 00:00:00.123456+00,2026-11-29 10:00:00,\\x78
2,"",NaN,Infinity,-0.50,f,,2026-11-29 00:00:00+00,2026-11-29 10:00:00.5,
3,,-Infinity,-Infinity,,,2026-01-01,,,\\xaa
4,"q""uote,",Infinity,NaN,0.00,t,infinity,infinity,-infinity,
5,NULL,1e+300,1e-30,NaN,t,0044-03-15 BC,1850-01-01 00:00:00+00,2026-11-29 10:00:00,
`;

const KOLKATA_FORCE_QUOTE = `id,s,f,r,d,b,dt,ts,ntz,bin
"1","a","1.5","1.5","12.34","t","2026-11-29","2026-11-29 05:30:00.123456+05:30","2026-11-29 10:00:00","\\x78"
"2","","NaN","Infinity","-0.50","f",,"2026-11-29 05:30:00+05:30","2026-11-29 10:00:00.5",
"3",,"-Infinity","-Infinity",,,"2026-01-01",,,"\\xaa"
"4","q""uote,","Infinity","NaN","0.00","t","infinity","infinity","-infinity",
"5","NULL","1e+300","1e-30","NaN","t","0044-03-15 BC","1850-01-01 05:53:28+05:53:28","2026-11-29 10:00:00",
`;

const TYPES: Readonly<Record<string, string>> = {
  id: 'int64', s: 'string', f: 'float64', r: 'float32', d: 'decimal(12,2)', b: 'boolean', dt: 'date', ts: 'timestamp', ntz: 'timestamp_ntz', bin: 'binary',
};

const CONTRACT = contractFrom(`name: pg
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
  columns:
${Object.entries(TYPES).map(([name, type]) => `    - { name: ${name}, type: "${type}" }`).join('\n')}
`);

async function readColumns(csv: string): Promise<Record<string, unknown[]>> {
  const batches = await collectBatches(openCsvFile(byteSourceFromBytes(new TextEncoder().encode(csv))), Object.keys(TYPES));
  return Object.fromEntries(Object.entries(TYPES).map(([name, type]) => {
    const coerce = coerceFor('text', parseColumnType(type)!);
    return [name, batches.flatMap((b) => Array.from(b.columns.get(name)!, coerce))];
  }));
}

describe.each([
  ['COPY ... WITH CSV HEADER in UTC', UTC],
  ['COPY ... WITH (FORMAT csv, HEADER true, FORCE_QUOTE *) at +05:30', KOLKATA_FORCE_QUOTE],
])('PostgreSQL %s', (_what, csv) => {
  it('reads the values of the first three rows', async () => {
    const columns = await readColumns(csv);
    const firstThree = Object.fromEntries(Object.entries(columns).map(([name, values]) => [name, values.slice(0, 3)]));
    expect(firstThree).toEqual({
      id: [1, 2, 3],
      s: ['a', '', null],
      f: [1.5, NaN, -Infinity],
      r: [1.5, Infinity, -Infinity],
      d: [12.34, -0.5, null],
      b: [true, false, null],
      dt: [Date.parse('2026-11-29'), null, Date.parse('2026-01-01')],
      // Past the millisecond, a time is read exactly (exact-value.ts).
      ts: [millisWithFraction(Date.parse('2026-11-29T00:00:00.123Z'), '456'), Date.parse('2026-11-29T00:00:00Z'), null],
      ntz: [Date.parse('2026-11-29T10:00:00Z'), Date.parse('2026-11-29T10:00:00.5Z'), null],
      bin: ['\\x78', null, '\\xaa'],
    });
  });

  it("reads a local mean time offset with seconds, as PostgreSQL writes instants before 1900, as the same instant", async () => {
    expect((await readColumns(csv)).ts![4]).toBe(Date.parse('1850-01-01T00:00:00Z'));
  });

  it('refuses infinity, BC dates and a NaN numeric as type violations, and keeps the text NULL a string', async () => {
    const report = await validate(CONTRACT, [memoryFile('pg.csv', csv)]);
    expect(counts(report)).toEqual({ 'type:d': 1, 'type:dt': 2, 'type:ts': 1, 'type:ntz': 1 });
    expect(report.violations.find((v) => v.column === 'dt')?.samples.map((s) => s.value)).toEqual(['infinity', '0044-03-15 BC']);
    expect((await readColumns(csv)).s![4]).toBe('NULL');
  });
});
