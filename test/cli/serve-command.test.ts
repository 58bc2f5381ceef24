import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../lib/cli/serve-command.js';

describe('contract-gate serve --demo (what npm start runs)', () => {
  it('drops the good and the bad example, prints both verdicts and notes both notifications', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-demo-'));
    let stdout = '';
    const stopped = new AbortController();
    stopped.abort(); // stop as soon as the demo is done instead of serving on
    const code = await serveCommand(['--port', '0', '--dir', dir, '--demo'], { stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false }, stopped.signal);
    expect(code).toBe(0);
    expect(stdout).toMatch(/gate: orders v1 dt=2026-11-29: PUBLISHED \(passed: no violations\)/);
    expect(stdout).toMatch(/gate: orders v1 dt=2026-11-28: QUARANTINED \(failed: 7 violations/);
    expect(stdout).toContain('s3://lake/published/orders/v1/dt=2026-11-29/_SUCCESS');
    const outcomes = readFileSync(join(dir, 'notifications.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).attributes.outcome);
    expect(outcomes).toEqual(['published', 'quarantined']);
  });
});
