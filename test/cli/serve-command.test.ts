import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../lib/cli/serve-command.js';

describe('contract-gate serve --demo (what npm start runs)', () => {
  it('drops the good, the DuckDB-written and the bad example, prints each verdict and notes each notification', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-demo-'));
    let stdout = '';
    const stopped = new AbortController();
    stopped.abort(); // stop as soon as the demo is done instead of serving on
    const code = await serveCommand(['--port', '0', '--dir', dir, '--demo'], { stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false }, stopped.signal);
    expect(code).toBe(0);
    expect(stdout).toMatch(/gate: orders v1 dt=2026-11-29: PUBLISHED \(passed: no violations\)/);
    expect(stdout).toMatch(/gate: orders v1 dt=2026-11-28: QUARANTINED \(failed: 7 violations/);
    expect(stdout).toContain('s3://lake/published/orders/v1/dt=2026-11-29/_SUCCESS');
    expect(stdout).toContain('demo: dropping the good example DuckDB wrote (COPY ... (FORMAT parquet), default settings) as s3://lake/staging/orders/v1/dt=2026-11-30/');
    expect(stdout).toMatch(/gate: orders v1 dt=2026-11-30: PUBLISHED \(passed: no violations\)/);
    expect(stdout).toContain('s3://lake/published/orders/v1/dt=2026-11-30/part-0000.parquet');
    expect(stdout).toContain('s3://lake/published/orders/v1/dt=2026-11-30/_SUCCESS');
    const notices = readFileSync(join(dir, 'notifications.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(notices.map((n) => [n.attributes.partition, n.attributes.outcome])).toEqual([
      ['dt=2026-11-29', 'published'], ['dt=2026-11-30', 'published'], ['dt=2026-11-28', 'quarantined'],
    ]);
    expect(notices[1].subject).toBe('[contract-gate] orders v1 dt=2026-11-30 published: 1,500 rows');
  });
});
