import { describe, expect, it } from 'vitest';
import { locator } from '../../lib/contract/yaml-locate.js';

const TEXT = ['schema:', '  columns:', '    - name: a', '    - name: b', '      references: { contract: c, column: d }', 'sla: &s { max_rows: 1 }', 'copy: *s', ''].join('\n');

describe('locator', () => {
  const locate = locator(TEXT);

  it('finds the value at a dotted path with list indexes', () => {
    expect(locate('schema.columns[1].references.column')).toEqual({ line: 5, column: 42 });
    expect(locate('schema.columns[0].name')).toEqual({ line: 3, column: 13 });
  });

  it('falls back to the nearest parent the file has', () => {
    expect(locate('schema.columns[1].references.major')).toEqual({ line: 5, column: 19 });
    expect(locate('schema.columns[7].references')).toEqual({ line: 3, column: 5 });
    expect(locate('nothing.here')).toEqual({ line: 1, column: 1 });
  });

  it('reads through an alias', () => {
    expect(locate('copy.max_rows')).toEqual({ line: 6, column: 21 });
  });
});
