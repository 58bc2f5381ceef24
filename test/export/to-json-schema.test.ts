import { describe, expect, it } from 'vitest';
import { exportJsonSchema, toJsonSchema } from '../../lib/export/to-json-schema.js';
import { contractFrom, ordersContract } from '../fixtures/partition.js';
import { compileRowSchema, failures } from './row-validator.js';

const ORDER = {
  order_id: 'ord_0a1b2c3d',
  status: 'paid',
  amount: '1234.50',
  refund_amount: null,
  ordered_at: '2026-11-29T10:00:00Z',
  updated_at: '2026-11-29T10:05:00.250+01:00',
  coupon: 'WINTER7',
};

/** A contract with one column of every type, and the rules JSON Schema must state or describe. */
const EVERY_TYPE = contractFrom(`
name: every_type
version: 2.0.1
owner: { team: t, notify: [t@example.com] }
produces: { format: jsonl, partition: "dt={ds}/hr={hh}" }
schema:
  grain: [id, seq]
  extra_columns: reject
  columns:
    - { name: id, type: string, min_length: 2 }
    - { name: seq, type: int32, min: 0 }
    - { name: big, type: int64 }
    - { name: ratio, type: float32, min: 0, max: 1 }
    - { name: price, type: "decimal(5,2)", max: 500, default: 0 }
    - { name: flag, type: boolean, required: true }
    - { name: day, type: date, min: "2020-01-01", max: "2030-12-31" }
    - { name: at, type: timestamp, not_in_future: true, unique: true }
    - { name: local, type: timestamp_ntz, min: "2020-01-01T00:00:00" }
    - { name: blob, type: binary }
    - { name: tier, type: string, enum: [gold, silver] }
`);

const EVERY_ROW = { id: 'ab', seq: 0, big: 2 ** 53 + 2, ratio: 0.5, price: '-12.25', flag: true, day: '2026-11-29', at: '2026-11-29T10:00:00Z', local: '2026-11-29 10:00', blob: 'AAEC' };

describe('the JSON Schema export of the orders contract', () => {
  const validate = compileRowSchema(exportJsonSchema(ordersContract()));

  it('compiles as draft 2020-12 in strict mode and accepts a valid order', () => {
    expect(validate(ORDER), failures(validate).join(', ')).toBe(true);
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
    ['a negative amount', { amount: '-1.00' }, '/amount pattern'],
    ['an amount with more decimals than its scale', { amount: '1.005' }, '/amount pattern'],
    ['an amount with more digits than its precision', { amount: '12345678901.00' }, '/amount pattern'],
    ['an amount written as a binary float', { amount: 19.99 }, '/amount type'],
    ['a timestamp without an offset', { ordered_at: '2026-11-29T10:00:00' }, '/ordered_at format'],
    ['an impossible date', { updated_at: '2026-02-30T10:00:00Z' }, '/updated_at format'],
    ['a coupon over 32 characters', { coupon: 'X'.repeat(33) }, '/coupon maxLength'],
    ['a refund_amount of the wrong type', { refund_amount: '12.00' }, '/refund_amount type'],
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

  it('names the contract and states the grain it cannot check on one row', () => {
    const schema = toJsonSchema(ordersContract());
    expect(schema.title).toBe('orders 1.2.0');
    expect(schema.required).toEqual(['order_id', 'status', 'amount', 'ordered_at', 'updated_at']);
    expect(schema.description).toBe('One row per order, as of the end of the partition day. contract-gate also checks: the grain (order_id) is unique within each partition.');
    expect(schema['x-contract-gate']).toMatchObject({ contract: 'orders', version: '1.2.0', grain: ['order_id'] });
    expect(schema.additionalProperties).toBeUndefined();
  });
});

describe('the JSON Schema export of each column type', () => {
  const text = exportJsonSchema(EVERY_TYPE);
  const validate = compileRowSchema(text);
  const properties = toJsonSchema(EVERY_TYPE).properties ?? {};

  it('accepts a row with a valid value of every type', () => {
    expect(validate(EVERY_ROW), failures(validate).join(', ')).toBe(true);
  });

  it('maps each type to a JSON type, format or encoding', () => {
    const shape = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, [p.type, p.format ?? p.contentEncoding ?? null]]));
    expect(shape).toEqual({
      id: ['string', null],
      seq: ['integer', null],
      big: [['integer', 'null'], null],
      ratio: [['number', 'null'], null],
      price: [['string', 'null'], null],
      flag: ['boolean', null],
      day: [['string', 'null'], 'date'],
      at: [['string', 'null'], 'date-time'],
      local: [['string', 'null'], null],
      blob: [['string', 'null'], 'base64'],
      tier: [['string', 'null'], null],
    });
  });

  it('bounds integers by their width and the contract, writing int64 bounds exactly', () => {
    expect(properties.seq).toMatchObject({ minimum: 0, maximum: 2147483647 });
    expect(text).toContain('"minimum": -9223372036854775808');
    expect(text).toContain('"maximum": 9223372036854775807');
    expect(validate({ ...EVERY_ROW, seq: -1 })).toBe(false);
    expect(validate({ ...EVERY_ROW, seq: 2 ** 31 })).toBe(false);
    expect(validate({ ...EVERY_ROW, seq: 1.5 })).toBe(false);
  });

  it('writes a decimal as a string of at most its digits, keeping the sign a negative minimum allows', () => {
    expect(properties.price?.pattern).toBe('^-?\\d{1,3}(\\.\\d{1,2})?$');
    expect(validate({ ...EVERY_ROW, price: '1000' })).toBe(false);
    expect(properties.price?.default).toBe('0');
  });

  it('puts temporal bounds and not_in_future in the description and x-contract-gate, since JSON Schema compares no dates', () => {
    expect(properties.day).toMatchObject({
      description: 'contract-gate also checks: between 2020-01-01 and 2030-12-31.',
      'x-contract-gate': { type: 'date', minimum: '2020-01-01', maximum: '2030-12-31' },
    });
    expect(properties.day).not.toHaveProperty('minimum');
    expect(properties.local?.['x-contract-gate']).toEqual({ type: 'timestamp_ntz', minimum: '2020-01-01T00:00:00.000' });
    expect(properties.at?.['x-contract-gate']).toEqual({ type: 'timestamp', not_in_future: true, unique: true });
    expect(validate({ ...EVERY_ROW, day: '1999-01-01' })).toBe(true);
  });

  it('states numeric bounds, lengths and the wall-clock form of timestamp_ntz', () => {
    expect(validate({ ...EVERY_ROW, ratio: 1.5 })).toBe(false);
    expect(validate({ ...EVERY_ROW, id: 'a' })).toBe(false);
    expect(validate({ ...EVERY_ROW, local: '2026-11-29T10:00:00Z' })).toBe(false);
  });

  it('requires every grain column and rejects columns the contract does not declare when extra_columns is reject', () => {
    expect(toJsonSchema(EVERY_TYPE).required).toEqual(['id', 'seq', 'flag']);
    expect(validate({ ...EVERY_ROW, extra: 1 })).toBe(false);
    expect(failures(validate)).toContain('/ additionalProperties');
  });

  it('lets a column that is not required be null, also one with an enum', () => {
    expect(validate({ ...EVERY_ROW, big: null, price: null, day: null, blob: null, tier: null })).toBe(true);
    expect(validate({ ...EVERY_ROW, tier: 'bronze' })).toBe(false);
  });
});
