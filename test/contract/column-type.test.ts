import { describe, expect, it } from 'vitest';
import { parseColumnType } from '../../lib/contract/column-type.js';

describe('parseColumnType', () => {
  it('reads decimal precision and scale', () => {
    expect(parseColumnType('decimal(12,2)')).toEqual({ kind: 'decimal', precision: 12, scale: 2 });
  });
  it('rejects a scale larger than the precision', () => {
    expect(parseColumnType('decimal(2,3)')).toBeUndefined();
  });
});
