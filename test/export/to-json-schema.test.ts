import { describe, expect, it } from 'vitest';
import { exportJsonSchema, toJsonSchema } from '../../lib/export/to-json-schema.js';
import { contractFrom, ordersContract } from '../fixtures/partition.js';
import { engineReport } from './engine-verdict.js';
import { compileRowSchema, failures } from './row-validator.js';

const ORDER = {
  order_id: 'ord_0a1b2c3d',
  status: 'paid',
  amount: 1234.5,
  refund_amount: null,
  ordered_at: '2026-11-29 10:00:00+00',
  updated_at: '2026-11-29T10:05:00.250+01:00',
  coupon: 'WINTER7',
};

/** The rides: a fare as DuckDB writes a DECIMAL, an int64 id up to 2^63-1, a date. */
const RIDES = contractFrom(`
name: rides
version: 3.1.0
owner: { team: t, notify: [t@example.com] }
produces: { format: jsonl }
schema:
  grain: [ride_id]
  columns:
    - { name: ride_id, type: int64, min: 1, max: 9223372036854775807 }
    - { name: trip_seq, type: int64, max: 9007199254740993 }
    - { name: fare_amount, type: "decimal(10,2)", required: true, min: 0 }
    - { name: tip, type: "decimal(38,2)" }
    - { name: pickup_day, type: date, min: "2020-01-01", not_in_future: true }
    - { name: vendor, type: string, enum: [cmt, vts], severity: { enum: warn } }
    - { name: zone, type: string, required: true, default: unknown }
    - { name: note, type: string, pattern: "^[a-z ]*$", severity: { type: warn } }
`);

describe('the JSON Schema export of the orders contract', () => {
  const validate = compileRowSchema(exportJsonSchema(ordersContract()));

  it('compiles as draft 2020-12 in strict mode and accepts an order as DuckDB writes it', () => {
    expect(validate(ORDER), failures(validate).join(', ')).toBe(true);
  });

  it('accepts an amount as a JSON number or as a string of digits, as the gate does', () => {
    expect(validate({ ...ORDER, amount: '1234.50' })).toBe(true);
    expect(validate({ ...ORDER, amount: 0.07 })).toBe(true);
    expect(validate({ ...ORDER, amount: '1.5E+2' })).toBe(true);
  });

  it('accepts an order whose optional columns are null or absent, and extra columns, which the contract allows', () => {
    const { coupon: _coupon, ...withoutCoupon } = ORDER;
    expect(validate({ ...withoutCoupon, refund_amount: null, channel: 'web' })).toBe(true);
    expect(validate({ ...ORDER, coupon: null })).toBe(true);
  });

  it.each([
    ['an order_id off the pattern', { order_id: 'ord_XYZ' }, '/order_id pattern'],
    ['a status outside the enum', { status: 'pending' }, '/status enum'],
    ['a null in a required column', { status: null }, '/status type'],
    ['a negative amount', { amount: -1 }, '/amount minimum'],
    ['a negative amount in a string', { amount: '-1.00' }, '/amount pattern'],
    ['an amount string with more decimals than its scale', { amount: '1.005' }, '/amount pattern'],
    ['an amount with more digits than its precision', { amount: 12345678901 }, '/amount maximum'],
    ['a timestamp without an offset', { ordered_at: '2026-11-29T10:00:00' }, '/ordered_at pattern'],
    ['a day that does not exist', { updated_at: '2026-02-30T10:00:00Z' }, '/updated_at pattern'],
    ['a timestamp as epoch milliseconds', { updated_at: 1764410700000 }, '/updated_at type'],
    ['a coupon over 32 characters', { coupon: 'X'.repeat(33) }, '/coupon maxLength'],
    ['a refund_amount of the wrong type', { refund_amount: '12.00' }, '/refund_amount pattern'],
  ])('rejects %s', (_rule, change, failure) => {
    expect(validate({ ...ORDER, ...change })).toBe(false);
    expect(failures(validate)).toContain(failure);
  });

  it('rejects an order without a required column', () => {
    const { ordered_at: _ordered, ...row } = ORDER;
    expect(validate(row)).toBe(false);
    expect(failures(validate)).toContain('/ required');
  });

  it('requires refund_amount when status is cancelled, as required_when says', () => {
    expect(validate({ ...ORDER, status: 'cancelled', refund_amount: null })).toBe(false);
    expect(validate({ ...ORDER, status: 'cancelled', refund_amount: 12.5 })).toBe(true);
    expect(validate({ ...ORDER, status: 'placed', refund_amount: null })).toBe(true);
  });

  it('names the contract, keeps its description, and states the grain it cannot check on one row', () => {
    const schema = toJsonSchema(ordersContract());
    expect(schema.title).toBe('orders 1.2.0');
    expect(schema.description).toBe('One row per order, as of the end of the partition day.');
    expect(schema.required).toEqual(['order_id', 'status', 'amount', 'ordered_at', 'updated_at']);
    expect(schema.$comment).toContain('contract-gate also checks: the grain (order_id) is unique within each partition.');
    expect(schema['x-contract-gate']).toMatchObject({ contract: 'orders', version: '1.2.0', grain: ['order_id'], format: 'parquet', partition: 'dt={ds}' });
    expect(schema.additionalProperties).toBeUndefined();
  });

  it('uses no format keyword: date-time refuses the timestamps DuckDB writes, which the gate reads', () => {
    expect(exportJsonSchema(ordersContract())).not.toMatch(/"format": "date/);
  });
});

describe('the JSON Schema export of the issue\'s rides', () => {
  const text = exportJsonSchema(RIDES);
  const validate = compileRowSchema(text);
  const properties = toJsonSchema(RIDES).properties ?? {};
  const RIDE = { ride_id: 9223372036854775807n, fare_amount: 12.5, pickup_day: '2026-11-29', zone: 'z1' };
  const row = (change: Record<string, unknown> = {}) => JSON.parse(JSON.stringify({ ...RIDE, ...change }, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as object;

  it('accepts a fare written as a JSON number, which the gate accepts for a decimal', () => {
    expect(validate(row()), failures(validate).join(', ')).toBe(true);
  });

  it('writes int64 bounds as the exact integers the gate compares with, never a rounded double', () => {
    expect(text).toContain('"maximum": 9223372036854775807');
    expect(text).not.toContain('9223372036854776000');
    // The loader keeps `max: 9007199254740993` to its last digit, and the gate compares with that.
    expect(text).toContain('"maximum": 9007199254740993');
    expect(properties.trip_seq?.['x-contract-gate']).toMatchObject({ max: 9007199254740993n });
  });

  it('agrees with the gate on an int64 at a bound beyond 2^53 and one past it', async () => {
    const [at, past] = ['9007199254740993', '9007199254740994'].map((seq) => `{"ride_id": 1, "trip_seq": ${seq}, "fare_amount": 1, "zone": "z"}`);
    expect((await engineReport(RIDES, new TextEncoder().encode(`${at}\n`))).violations).toEqual([]);
    const report = await engineReport(RIDES, new TextEncoder().encode(`${past}\n`));
    expect(report.violations.map((v) => `${v.rule} ${v.column}`)).toEqual(['max trip_seq']);
    // A validator with exact integers (Python's jsonschema) refuses the second row too: the bound is exact in the text.
    const bound = /"maximum": (\d+)/.exec(text.slice(text.indexOf('"trip_seq"')))?.[1];
    expect(BigInt(bound!)).toBe(9007199254740993n);
  });

  it('writes the largest decimal(38,2) as its exact digits', () => {
    expect(text).toContain('"maximum": 999999999999999999999999999999999999.99');
    expect(text).toContain('"minimum": -999999999999999999999999999999999999.99');
  });

  it('takes int64 values as numbers or digit strings, and refuses a fraction', () => {
    expect(validate(row({ ride_id: '9223372036854775807' }))).toBe(true);
    expect(validate(row({ ride_id: 1.5 }))).toBe(false);
    expect(validate(row({ ride_id: '1.5' }))).toBe(false);
    expect(validate(row({ ride_id: 0 }))).toBe(false);
    expect(failures(validate)).toContain('/ride_id minimum');
  });

  it('leaves the date bound and not_in_future to the gate, saying so in $comment and x-contract-gate', () => {
    expect(properties.pickup_day?.$comment).toBe('contract-gate also checks: the day exists (February 29 only in leap years); at least 2020-01-01; not in the future.');
    expect(properties.pickup_day?.['x-contract-gate']).toEqual({ type: 'date', min: '2020-01-01', not_in_future: true });
    expect(validate(row({ pickup_day: '1999-01-01' }))).toBe(true);
  });

  it('does not assert a rule at severity warn, which the gate reports and publishes', () => {
    expect(validate(row({ vendor: 'xyz' }))).toBe(true);
    expect(properties.vendor?.$comment).toBe('contract-gate also checks: one of cmt, vts (severity warn: reported, not blocking).');
    expect(properties.vendor?.['x-contract-gate']).toEqual({ type: 'string', enum: ['cmt', 'vts'], severity: { enum: 'warn' } });
  });

  it('takes any value of a column whose type only warns, holding its strings to the pattern', () => {
    expect(validate(row({ note: 42 }))).toBe(true);
    expect(validate(row({ note: 'ok then' }))).toBe(true);
    expect(validate(row({ note: 'NOT OK' }))).toBe(false);
  });

  it('lets a required column with a default be left out, as the gate reads the default, but not be null', () => {
    expect(toJsonSchema(RIDES).required).toEqual(['ride_id', 'fare_amount']);
    const { zone: _zone, ...withoutZone } = row() as Record<string, unknown>;
    expect(validate(withoutZone)).toBe(true);
    expect(validate(row({ zone: null }))).toBe(false);
    expect(properties.zone?.default).toBe('unknown');
  });

  it('writes each JSON form of a value as its own anyOf branch, which strict validators accept', () => {
    expect(properties.fare_amount?.anyOf?.map((branch) => branch.type)).toEqual(['number', 'string']);
    expect(properties.tip?.anyOf?.map((branch) => branch.type)).toEqual(['number', 'string', 'null']);
    expect(properties.ride_id?.anyOf?.map((branch) => branch.type)).toEqual(['integer', 'string']);
  });
});

describe('the JSON Schema of a contract with reference rows', () => {
  it('states each row in the comment and keeps the rows under x-contract-gate, as no line schema can check them', () => {
    const schema = toJsonSchema(ordersContract((y) => `${y}reference_rows:\n  - { key: { order_id: ord_00001001 }, expect: { amount: { value: 100.00, relative: 0.01 }, status: paid }, required: true }\n`));
    expect(schema.$comment).toContain('the row with order_id=ord_00001001 has amount 100 (within ±1%), status "paid" and is present in each partition');
    expect((schema['x-contract-gate'] as Record<string, unknown>).reference_rows).toEqual([{ key: { order_id: 'ord_00001001' }, expect: { amount: { value: 100, relative: 0.01 }, status: 'paid' }, required: true }]);
  });
});
