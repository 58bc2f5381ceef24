import { describe, expect, it } from 'vitest';
import { makeOrders, ordersToCsv, ordersToJsonLines } from '../fixtures/orders-fixture.js';
import { contractFrom, counts, memoryFile, validate } from '../fixtures/partition.js';

const EVENTS = (format: 'csv' | 'jsonl', extra = 'allow') => contractFrom(`
name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: ${format} }
schema:
  grain: [id]
  extra_columns: ${extra}
  columns:
    - { name: id, type: int64, required: true }
    - { name: kind, type: string, required: true, enum: [click, view] }
    - { name: price, type: "decimal(6,2)", min: 0 }
    - { name: at, type: timestamp, required: true }
    - { name: day, type: date }
    - { name: ok, type: boolean }
`);

describe('validatePartition on CSV', () => {
  it('passes the orders fixture written as CSV against the orders contract', async () => {
    const contract = contractFrom((await import('node:fs')).readFileSync('contracts/orders.v1.yaml', 'utf8').replace('format: parquet', 'format: csv'));
    const report = await validate(contract, [memoryFile('orders.csv', ordersToCsv(makeOrders({ rows: 1200 })))]);
    expect(report.violations).toEqual([]);
    expect(report.rows).toBe(1200);
  });

  it('reports a value that does not parse as the column type as a type violation of that row', async () => {
    const csv = 'id,kind,price,at,day,ok\n1,click,1.50,2026-11-29T10:00:00Z,2026-11-29,true\n2,view,1.505,2026-11-29T10:00:00,2026-02-30,yes\nx,click,abc,2026-11-29T10:00:00+01:00,,false\n';
    const report = await validate(EVENTS('csv'), [memoryFile('e.csv', csv)]);
    expect(counts(report)).toEqual({ 'type:id': 1, 'type:price': 2, 'type:at': 1, 'type:day': 1, 'type:ok': 1 });
    const price = report.violations.find((v) => v.column === 'price');
    expect(price?.samples).toEqual([{ file: 'e.csv', row: 1, value: '1.505' }, { file: 'e.csv', row: 2, value: 'abc' }]);
    expect(price?.message).toBe('2 rows of price are not a decimal with at most 4 digits before the point and 2 after');
  });

  it('treats an empty unquoted field as null and a quoted empty string as a value', async () => {
    const csv = 'id,kind,price,at,day,ok\n1,,1,2026-11-29T10:00:00Z,,\n2,"",1,2026-11-29T10:00:00Z,,\n';
    const report = await validate(EVENTS('csv'), [memoryFile('e.csv', csv)]);
    expect(counts(report)).toEqual({ 'required:kind': 1, 'enum:kind': 1 });
    expect(report.violations.map((v) => v.samples[0]?.row)).toEqual([0, 1]);
  });

  it('compares numeric keys by value across spellings and files', async () => {
    const report = await validate(EVENTS('csv'), [
      memoryFile('a.csv', 'id,kind,price,at,day,ok\n7,click,1,2026-11-29T10:00:00Z,,\n'),
      memoryFile('b.csv', 'id,kind,price,at,day,ok\n+7,view,1,2026-11-29T11:00:00Z,,\n8,view,1,2026-11-29T11:00:00Z,,\n'),
    ]);
    expect(report.violations).toEqual([{
      rule: 'grain', severity: 'error', count: 1, message: '1 value of the grain (id) occurs more than once',
      samples: [{ file: 'a.csv', row: 0, value: 7 }, { file: 'b.csv', row: 0, value: 7 }],
    }]);
  });

  it('reports a ragged row as unreadable and keeps checking the others', async () => {
    const csv = 'id,kind,price,at,day,ok\n1,click,1,2026-11-29T10:00:00Z,,\n2,click\n3,nope,1,2026-11-29T10:00:00Z,,\n';
    const report = await validate(EVENTS('csv'), [memoryFile('e.csv', csv)]);
    expect(counts(report)).toEqual({ unreadable: 1, 'enum:kind': 1 });
    expect(report.violations[0]?.samples[0]).toEqual({ file: 'e.csv', row: 1, value: 'line 3: expected 6 fields as in the header, found 2 (check produces.csv.delimiter, quote and escape against how the file is written)' });
    expect(report.rows).toBe(2);
  });

  it('reports header columns missing from the contract and required columns missing from the header; optional ones read as nulls', async () => {
    const report = await validate(EVENTS('csv', 'reject'), [memoryFile('e.csv', 'kind,at,colour\nclick,2026-11-29T10:00:00Z,red\n')]);
    expect(counts(report)).toEqual({ 'missing_column:id': 1, 'unexpected_column:colour': 1 });
    expect(report.notes).toEqual(['column price is not in the file: its rows were read as nulls', 'column day is not in the file: its rows were read as nulls', 'column ok is not in the file: its rows were read as nulls']);
  });
});

describe('validatePartition on JSON Lines', () => {
  it('passes the orders fixture written as JSON Lines against the orders contract', async () => {
    const contract = contractFrom((await import('node:fs')).readFileSync('contracts/orders.v1.yaml', 'utf8').replace('format: parquet', 'format: jsonl'));
    const report = await validate(contract, [memoryFile('orders.jsonl', ordersToJsonLines(makeOrders({ rows: 1200 })))]);
    expect(report.violations).toEqual([]);
  });

  it('counts one unreadable per line that is not a JSON object and checks the rest', async () => {
    const lines = ['{"id":1,"kind":"click","at":"2026-11-29T10:00:00Z"}', '[1,2]', 'not json', '', '{"id":2,"kind":"buy","at":"2026-11-29T10:00:00Z"}'];
    const report = await validate(EVENTS('jsonl'), [memoryFile('e.jsonl', lines.join('\n'))]);
    expect(counts(report)).toEqual({ unreadable: 2, 'enum:kind': 1 });
    expect(report.violations[0]?.samples.map((s) => s.row)).toEqual([1, 2]);
    expect(report.rows).toBe(2);
  });

  it('reads an absent key as null and a value of the wrong JSON type as a type violation', async () => {
    const lines = ['{"id":1,"at":"2026-11-29T10:00:00Z","price":"12.50","ok":1}', '{"id":"2","kind":"view","at":1764410400000,"price":3.5}'];
    const report = await validate(EVENTS('jsonl'), [memoryFile('e.jsonl', lines.join('\n'))]);
    expect(counts(report)).toEqual({ 'type:at': 1, 'type:ok': 1, 'required:kind': 1 });
  });

  it('rejects keys the contract does not name when extra_columns is reject', async () => {
    const report = await validate(EVENTS('jsonl', 'reject'), [memoryFile('e.jsonl', '{"id":1,"kind":"view","at":"2026-11-29T10:00:00Z","debug":true}\n')]);
    expect(counts(report)).toEqual({ 'unexpected_column:debug': 1 });
  });
});

describe('hostile JSON Lines values', () => {
  it('samples a value nested a hundred thousand levels deep without overflowing, and checks the other rows', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const lines = [`{"id":1,"kind":"click","at":"2026-11-29T10:00:00Z","ok":${deep}}`, '{"id":2,"kind":"nope","at":"2026-11-29T10:00:00Z"}'];
    const report = await validate(EVENTS('jsonl'), [memoryFile('e.jsonl', lines.join('\n'))]);
    expect(counts(report)).toEqual({ 'type:ok': 1, 'enum:kind': 1 });
    expect(report.violations.find((v) => v.rule === 'type')?.samples[0]?.value).toBe('[[[[…]]]]');
  });
});
