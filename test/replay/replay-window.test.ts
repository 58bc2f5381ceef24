import { describe, expect, it } from 'vitest';
import { GateError } from '../../lib/errors.js';
import { partitionTime, replayWindow } from '../../lib/replay/replay-window.js';

const NOW = Date.parse('2026-11-30T06:00:00Z');
const at = (iso: string) => Date.parse(iso);

describe('the window of a replay', () => {
  it('takes today and the N days before it for --last N, and a week when nothing is asked', () => {
    expect(replayWindow({ last: '1' }, NOW)).toEqual({ since: at('2026-11-29T00:00:00Z'), asked: 'the last 1 day, since 2026-11-29' });
    expect(replayWindow({ last: '30' }, NOW).since).toBe(at('2026-10-31T00:00:00Z'));
    expect(replayWindow({}, NOW)).toEqual({ since: at('2026-11-23T00:00:00Z'), asked: 'the last 7 days (the default), since 2026-11-23' });
  });

  it('starts --since at a day (00:00 UTC) or at an instant with an offset', () => {
    expect(replayWindow({ since: '2026-11-01' }, NOW)).toEqual({ since: at('2026-11-01T00:00:00Z'), asked: 'since 2026-11-01' });
    expect(replayWindow({ since: '2026-11-01T12:00:00+02:00' }, NOW).since).toBe(at('2026-11-01T10:00:00Z'));
  });

  it('refuses what it cannot read as bad arguments', () => {
    for (const options of [{ last: '0' }, { last: '-3' }, { last: '1.5' }, { last: 'week' }, { since: '2026-11-31' }, { since: '2026-11-01T00:00:00' }, { last: '3', since: '2026-11-01' }]) {
      expect(() => replayWindow(options, NOW)).toThrow(GateError);
    }
  });

  it("places a partition by the {ds} and {hh} of its path, and not at all when the path does not fit", () => {
    expect(partitionTime('dt={ds}', 'dt=2026-11-29')).toBe(at('2026-11-29T00:00:00Z'));
    expect(partitionTime('dt={ds}/hr={hh}', 'dt=2026-11-29/hr=06')).toBe(at('2026-11-29T06:00:00Z'));
    expect(partitionTime('dt={ds}', 'dt=latest')).toBeUndefined();
    expect(partitionTime('dt={ds}/hr={hh}', 'dt=2026-11-29')).toBeUndefined();
  });
});
