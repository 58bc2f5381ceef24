import type { LogicalTable } from '../writers/index.js';
import { buildColumn, plant } from './plants.js';
import { pick, randomInt, seededRandom } from '../fixtures/seeded-random.js';

const DAY = Date.UTC(2026, 10, 30);
const HOUR = 3_600_000;
const STATUSES = ['placed', 'paid', 'paid', 'placed', 'cancelled'];
const COUPONS = ['SAVE10', 'WELCOME', 'ÉTÉ2026', '🎁🎁🎁🎁🎁🎁', '🎁'.repeat(12), 'BLACKFRIDAY1'];

/** An odd multiplier is a bijection modulo 2^32: distinct ids that look random. */
function orderId(n: number): string {
  return `ord_${(Math.imul(n + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * An orders partition in the shape of contracts/orders.v1.yaml plus a quantity and a ship date,
 * with violations of every rule of test/matrix/contracts/orders.yaml planted across the file:
 * nulls in required columns, enum misses, bounds crossed (and met exactly), pattern and length
 * misses, duplicate order ids, refunds missing on cancelled orders, orders in the future.
 * Without plants (`planted: false`) every row keeps the contract.
 */
export function ordersTable(rows: number, { planted = true } = {}): LogicalTable {
  const random = seededRandom(20261130);
  const status = Array.from({ length: rows }, () => pick(random, STATUSES));
  const ordered = Array.from({ length: rows }, (_, i) => DAY + Math.floor((i * 24 * HOUR) / rows) + randomInt(random, 0, 999));
  const amount = Array.from({ length: rows }, () => randomInt(random, 1, 499_999) / 100);
  const p = (count: number, phase: number, value: (row: number) => unknown) => plant(planted ? count : 0, rows, phase, value);
  const columns = [
    buildColumn({ name: 'order_id', type: 'string', nullable: true }, rows, orderId, [
      p(9, 0.31, (i) => `ORD_${orderId(i).slice(4)}`), p(5, 0.77, (i) => orderId(i).slice(0, 10)),
      // Each duplicate copies the id of a row far before it, often in another row group.
      p(11, 0.53, (i) => orderId(Math.floor(i / 3))), p(7, 0.12, () => null),
    ]),
    buildColumn({ name: 'status', type: 'string', nullable: true }, rows, (i) => status[i], [
      p(6, 0.41, () => 'shipped'), p(4, 0.86, () => 'Paid'), p(3, 0.66, () => null),
    ]),
    buildColumn({ name: 'amount', type: 'decimal', precision: 12, scale: 2, nullable: true }, rows, (i) => amount[i], [
      p(6, 0.22, (i) => -amount[i]!), p(3, 0.93, () => 50_000.01), p(2, 0.5, () => 0), p(2, 0.05, () => 50_000), p(4, 0.71, () => null),
    ]),
    buildColumn({ name: 'refund_amount', type: 'float64', nullable: true }, rows, (i) => (status[i] === 'cancelled' && (i % 97 !== 0 || !planted) ? amount[i] : null), [
      p(5, 0.37, () => -0.5),
    ]),
    buildColumn({ name: 'quantity', type: 'int32', nullable: true }, rows, () => randomInt(random, 1, 100), [
      p(4, 0.18, () => 0), p(3, 0.58, () => 101), p(2, 0.88, () => -5), p(3, 0.28, () => null),
    ]),
    buildColumn({ name: 'ordered_at', type: 'timestamp', nullable: true }, rows, (i) => ordered[i], [
      p(4, 0.44, (i) => ordered[i]! + 3 * 24 * HOUR), p(3, 0.64, () => Date.UTC(2026, 9, 31, 23, 59, 59)), p(2, 0.84, () => null),
    ]),
    buildColumn({ name: 'updated_at', type: 'timestamp', nullable: true }, rows, (i) => ordered[i]! + randomInt(random, 0, 600_000), [p(3, 0.47, () => null)]),
    buildColumn({ name: 'ship_date', type: 'date', nullable: true }, rows, (i) => (i % 4 === 0 ? null : DAY + randomInt(random, 0, 20) * 24 * HOUR), [
      p(3, 0.15, () => DAY - 24 * HOUR), p(3, 0.75, () => Date.UTC(2027, 0, 1)),
    ]),
    buildColumn({ name: 'coupon', type: 'string', nullable: true }, rows, (i) => (i % 5 === 0 ? pick(random, COUPONS) : null), [
      p(4, 0.26, () => 'X'.repeat(13)), p(3, 0.56, () => 'abc'), p(2, 0.96, () => '🎁'.repeat(13)), p(2, 0.16, () => ''),
    ]),
  ];
  return { columns, rows };
}
