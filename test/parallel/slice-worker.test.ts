import { describe, expect, it } from 'vitest';
import { loadedPackages } from '../fixtures/loaded-packages.js';

describe('the slice worker', () => {
  it('starts without the AWS SDK, which it loads only for a file in S3', () => {
    const run = loadedPackages(['--input-type=module', '-e', "await import('./lib/parallel/slice-worker.ts'); console.log('loaded');"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('loaded');
    expect(run.packages).not.toEqual([]);
    expect(run.packages.filter((name) => name.startsWith('@aws-sdk/') || name.startsWith('@smithy/'))).toEqual([]);
  });
});
