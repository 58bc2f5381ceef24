import { describe, expect, it } from 'vitest';
import { GateError } from '../../lib/errors.js';
import { partitionOfPaths } from '../../lib/contract/partition-template.js';
import { parseLakeAddress, prefixedLake } from '../../lib/lake/lake-address.js';

describe('where --history points, and which partition is checked', () => {
  it('reads a bucket with or without a prefix, and anything else as a directory', () => {
    expect(parseLakeAddress('s3://acme-lake')).toEqual({ kind: 's3', bucket: 'acme-lake', prefix: '' });
    expect(parseLakeAddress('s3://acme-lake/team/lake/')).toEqual({ kind: 's3', bucket: 'acme-lake', prefix: 'team/lake/' });
    expect(parseLakeAddress('./.lake')).toEqual({ kind: 'dir', path: './.lake' });
    for (const bad of ['s3://', 's3:///lake', 's3://lake/a//b', 's3://lake/../x']) {
      expect(() => parseLakeAddress(bad)).toThrow(GateError);
    }
  });

  it('keeps the gate layout and the registry under a bucket prefix', () => {
    const { layout, registryPrefix } = prefixedLake('team/lake/');
    expect({ published: layout.published, success: layout.success, registryPrefix }).toEqual({ published: 'team/lake/published/', success: '_SUCCESS', registryPrefix: 'team/lake/_contracts/' });
  });

  it('names the partition from the trailing segments of the paths, or of a file\'s folder', () => {
    expect(partitionOfPaths(['out/dt=2026-11-30/'], 'dt={ds}')).toBe('dt=2026-11-30');
    expect(partitionOfPaths(['out/dt=2026-11-30/part-0.parquet', 'out/dt=2026-11-30/part-1.parquet'], 'dt={ds}')).toBe('dt=2026-11-30');
    expect(partitionOfPaths(['out/dt=2026-11-30/hr=06'], 'dt={ds}/hr={hh}')).toBe('dt=2026-11-30/hr=06');
    expect(partitionOfPaths(['out/dt=2026-11-30', 'out/dt=2026-11-29'], 'dt={ds}')).toBeUndefined();
    expect(partitionOfPaths(['out/batch-1'], 'dt={ds}')).toBeUndefined();
  });
});
