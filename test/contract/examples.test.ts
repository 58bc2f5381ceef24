import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_DAY, examplePartition } from '../fixtures/example-partitions.js';

describe('the example partitions in contracts/examples', () => {
  it.each(['good', 'bad'] as const)('%s is exactly what the fixture generator writes (npm run examples)', (kind) => {
    const dir = join('contracts', 'examples', 'orders', kind, `dt=${EXAMPLE_DAY}`);
    const expected = examplePartition(kind);
    expect(readdirSync(dir).sort()).toEqual(expected.map((f) => f.name));
    for (const file of expected) expect(Buffer.compare(readFileSync(join(dir, file.name)), file.bytes)).toBe(0);
  });
});
