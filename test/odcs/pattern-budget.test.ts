import { describe, expect, it } from 'vitest';
import { MAX_CONTRACT_PATTERN_SIZE } from '../../lib/contract/pattern-matcher.js';
import { cpuTimed } from '../hostile/cpu-time.js';
import { load, odcs } from './odcs-doc.js';

describe('ODCS patterns', () => {
  it('are bounded per contract like native ones, in logicalTypeOptions and in quality rules alike', () => {
    const heavy = (i: number) => `"^x${i}(?:[a-f]|[0-9]){0,400}$"`;
    const properties = Array.from({ length: 200 }, (_, i) => [
      `      - name: c${i}`,
      '        logicalType: string',
      i % 2 === 0
        ? `        logicalTypeOptions: { pattern: ${heavy(i)} }`
        : `        quality: [{ metric: invalidValues, arguments: { pattern: ${heavy(i)} }, mustBe: 0 }]`,
    ]).flat();
    const { result, ms } = cpuTimed(() => load(odcs(properties)));
    const refused = result.problems.filter((p) => p.code === 'invalid_regex');
    expect(refused.length).toBeGreaterThan(100);
    expect(refused[0]?.message).toBe(`the patterns of this contract compile to more than ${MAX_CONTRACT_PATTERN_SIZE} steps together; simplify them`);
    expect(refused.some((p) => p.path.endsWith('logicalTypeOptions.pattern'))).toBe(true);
    expect(refused.some((p) => p.path.endsWith('arguments.pattern'))).toBe(true);
    expect(result.contract).toBeUndefined();
    expect(ms).toBeLessThan(1000);
  });
});
