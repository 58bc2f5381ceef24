import { applyPlants, duplicateSource, mix32, plantsExpected, type SpreadPlant } from './spread-plants.js';
import { DATE, decimal, INT32, INT64, optional, STRING, type TableChunk, type TableSpec } from './table-spec.js';
import type { CommonViolation } from './violation-set.js';

/**
 * A TPC-H lineitem-like table (contract: lineitem-bench.v1.yaml): 16 columns, a composite grain
 * (l_orderkey, l_linenumber), four decimals, three dates, low-cardinality strings under enums and
 * a free-text comment under a pattern, violations of eleven rules spread over every row group.
 * Orders take 1-7 lines: every 8 rows hold two orders, the first of 1-7 lines, the second the rest,
 * so keys rise through the file as dbgen writes them. Decimals are written unscaled (bigint, cents).
 */
const DAY_MS = 86_400_000;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const FIRST_ORDER_DAY = day('1992-01-01');
const ORDER_DAYS = day('1998-08-02') - FIRST_ORDER_DAY;
const CURRENT_DAY = day('1995-06-17');
const SHIP_INSTRUCTIONS = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'] as const;
const SHIP_MODES = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'] as const;
const WORDS = ['furiously', 'quickly', 'carefully', 'blithely', 'slyly', 'ironic', 'final', 'pending', 'regular', 'express', 'special', 'bold', 'even', 'silent', 'unusual', 'deposits', 'requests', 'packages', 'accounts', 'theodolites', 'instructions', 'pinto', 'beans', 'foxes'] as const;

/** Row n's order key and line number (1-7). */
function lineOf(n: number): { order: number; line: number } {
  const block = Math.floor(n / 8);
  const position = n % 8;
  const firstLines = 1 + (mix32(block, 41) % 7);
  return position < firstLines ? { order: 2 * block + 1, line: position + 1 } : { order: 2 * block + 2, line: position - firstLines + 1 };
}

function comment(n: number): string {
  const h = mix32(n, 71);
  const words = 2 + (h % 5);
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[mix32(n, 72 + i) % WORDS.length]!);
  return out.join(' ');
}

const PLANTS: readonly SpreadPlant[] = [
  { rule: 'required', column: 'l_partkey', offset: 101, value: () => null },
  { rule: 'min', column: 'l_suppkey', offset: 501, value: () => 0n },
  { rule: 'min', column: 'l_quantity', offset: 1201, value: () => 0n },
  { rule: 'max', column: 'l_discount', offset: 2301, value: () => 11n },
  { rule: 'max', column: 'l_tax', offset: 3401, value: () => 9n },
  { rule: 'enum', column: 'l_returnflag', offset: 4501, value: () => 'X' },
  { rule: 'enum', column: 'l_shipmode', offset: 5601, value: () => 'BOAT' },
  { rule: 'max', column: 'l_shipdate', offset: 6601, value: () => day('1999-06-01') },
  // Capitalised: the same words, so only the pattern tells it apart.
  { rule: 'pattern', column: 'l_comment', offset: 8801, value: (row) => comment(row).replace(/^./, (c) => c.toUpperCase()) },
  { rule: 'required', column: 'l_receiptdate', offset: 9901, value: () => null },
  // A composite duplicate: both key columns copied from another row (the line number below).
  { rule: 'grain', column: 'l_orderkey', offset: 7707, value: (row, rows) => BigInt(lineOf(duplicateSource(row, rows)).order) },
];
/** The grain plant's second column; not a violation of its own. */
const GRAIN_LINE: SpreadPlant = { rule: 'grain', column: 'l_linenumber', offset: 7707, value: (row, rows) => lineOf(duplicateSource(row, rows)).line };

const COLUMN_NAMES = ['l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber', 'l_quantity', 'l_extendedprice', 'l_discount', 'l_tax', 'l_returnflag', 'l_linestatus', 'l_shipdate', 'l_commitdate', 'l_receiptdate', 'l_shipinstruct', 'l_shipmode', 'l_comment'] as const;

function base(first: number, end: number): TableChunk {
  const chunk: TableChunk = Object.fromEntries(COLUMN_NAMES.map((name) => [name, []]));
  const push = (name: (typeof COLUMN_NAMES)[number], value: unknown) => chunk[name]!.push(value);
  for (let n = first; n < end; n++) {
    const { order, line } = lineOf(n);
    const part = 1 + (mix32(n, 43) % 200_000);
    const quantity = 1 + (mix32(n, 53) % 50);
    const priceCents = 90_000 + ((part / 10) | 0) % 20_001 + 100 * (part % 1_000);
    const orderDay = FIRST_ORDER_DAY + (mix32(order, 67) % ORDER_DAYS);
    const h = mix32(n, 79);
    const ship = orderDay + 1 + (h % 121);
    const receipt = ship + 1 + ((h >>> 8) % 30);
    push('l_orderkey', BigInt(order));
    push('l_partkey', BigInt(part));
    push('l_suppkey', BigInt(1 + (mix32(n, 47) % 10_000)));
    push('l_linenumber', line);
    push('l_quantity', BigInt(quantity * 100));
    push('l_extendedprice', BigInt(quantity * priceCents));
    push('l_discount', BigInt(mix32(n, 59) % 11));
    push('l_tax', BigInt(mix32(n, 61) % 9));
    push('l_returnflag', receipt <= CURRENT_DAY ? ((h >>> 16) % 2 === 0 ? 'R' : 'A') : 'N');
    push('l_linestatus', ship > CURRENT_DAY ? 'O' : 'F');
    push('l_shipdate', ship);
    push('l_commitdate', orderDay + 30 + ((h >>> 4) % 61));
    push('l_receiptdate', receipt);
    push('l_shipinstruct', SHIP_INSTRUCTIONS[(h >>> 12) % SHIP_INSTRUCTIONS.length]!);
    push('l_shipmode', SHIP_MODES[(h >>> 20) % SHIP_MODES.length]!);
    push('l_comment', comment(n));
  }
  return chunk;
}

const MONEY = decimal(15, 2);

export const LINEITEM: TableSpec = {
  version: 'lineitem16-v1',
  schema: [
    { name: 'root', num_children: COLUMN_NAMES.length },
    optional('l_orderkey', INT64),
    optional('l_partkey', INT64),
    optional('l_suppkey', INT64),
    optional('l_linenumber', INT32),
    optional('l_quantity', MONEY),
    optional('l_extendedprice', MONEY),
    optional('l_discount', MONEY),
    optional('l_tax', MONEY),
    optional('l_returnflag', STRING),
    optional('l_linestatus', STRING),
    optional('l_shipdate', DATE),
    optional('l_commitdate', DATE),
    optional('l_receiptdate', DATE),
    optional('l_shipinstruct', STRING),
    optional('l_shipmode', STRING),
    optional('l_comment', STRING),
  ],
  chunk: (first, end, rows) => applyPlants(base(first, end), [...PLANTS, GRAIN_LINE], first, end, rows),
};

export function lineitemExpected(rows: number): CommonViolation[] {
  return plantsExpected(PLANTS, rows);
}
