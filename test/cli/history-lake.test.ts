import { describe, expect, it } from 'vitest';
import { loadedPackages } from '../fixtures/loaded-packages.js';

describe('validate without an S3 lake', () => {
  it('checks a local partition without loading the AWS SDK', () => {
    const run = loadedPackages(['lib/cli/main.ts', 'validate', '--contract', 'contracts/orders.v1.yaml', 'contracts/examples/orders/bad', '--now', '2026-11-30T05:00:00Z', '--format', 'json']);
    expect(run.status, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).violations.length).toBeGreaterThan(0);
    expect(run.packages).not.toEqual([]);
    expect(run.packages.filter((name) => name.startsWith('@aws-sdk/') || name.startsWith('@smithy/'))).toEqual([]);
  });
});
