import { describe, expect, it } from 'vitest';
import type { Decision } from '../../lib/gate/decision.js';
import { contractDimension, decisionMetrics, isRefused, resultMetrics } from '../../lib/gate/outcome-metrics.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { supersededDecision } from '../../lib/gate/superseded.js';
import { dropExample, gateDeps, MARKER, NOW } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

const here = () => ({ carriedOutHere: true });

async function decided(kind: 'good' | 'bad', prefix?: string): Promise<Decision> {
  const store = new MemoryObjectStore();
  await dropExample(store, kind, prefix);
  const result = await processMarker(gateDeps(store), prefix ? `${prefix}_READY` : MARKER);
  if (!('decision' in result)) throw new Error(`no decision: ${result.reason}`);
  return result.decision;
}

const byName = (metrics: readonly { name: string; unit: string; value: number }[]) => Object.fromEntries(metrics.map((m) => [m.name, { unit: m.unit, value: m.value }]));

describe('the metrics of a verdict', () => {
  it('a quarantine after the checks: one quarantined drop, the rows and bytes read, seconds from marker to verdict', async () => {
    const decision = await decided('bad');
    const metrics = decisionMetrics(decision, 2.5)!;
    expect(metrics.contract).toBe('orders');
    const marker = Date.parse(decision.report.source.marker.last_modified);
    expect(byName(metrics.metrics)).toEqual({
      DropsQuarantined: { unit: 'Count', value: 1 },
      RowsChecked: { unit: 'Count', value: decision.report.rows },
      BytesRead: { unit: 'Bytes', value: decision.report.stats!.bytes_read },
      ValidationSeconds: { unit: 'Seconds', value: 2.5 },
      MarkerToVerdictSeconds: { unit: 'Seconds', value: Math.max(0, (NOW - marker) / 1000) },
    });
    expect(decision.report.rows).toBeGreaterThan(0);
    expect(decision.report.stats!.bytes_read).toBeGreaterThan(0);
  });

  it('a publish counts as published; no ValidationSeconds when the adapter timed no checks', async () => {
    const metrics = decisionMetrics(await decided('good'))!;
    expect(Object.keys(byName(metrics.metrics)).sort()).toEqual(['BytesRead', 'DropsPublished', 'MarkerToVerdictSeconds', 'RowsChecked']);
  });

  it('a drop with no contract is quarantined and refused, never read, under the name it came with', async () => {
    const decision = await decided('bad', 'staging/Orders/v1/dt=2026-11-29/');
    expect(isRefused(decision)).toBe(true);
    const metrics = decisionMetrics(decision)!;
    expect(metrics.contract).toBe('Orders');
    expect(byName(metrics.metrics)).toEqual({ DropsQuarantined: { unit: 'Count', value: 1 }, DropsRefused: { unit: 'Count', value: 1 }, MarkerToVerdictSeconds: expect.anything() });
  });

  it('a quarantine on the data is not a refusal, and a superseded drop counts as superseded', async () => {
    const decision = await decided('bad');
    expect(isRefused(decision)).toBe(false);
    const superseded = supersededDecision(decision, [{ key: decision.files[0]!.key, listed: decision.files[0]!.etag, now: null }]);
    expect(byName(decisionMetrics(superseded)!.metrics)).toMatchObject({ DropsSuperseded: { unit: 'Count', value: 1 } });
    expect(byName(decisionMetrics(superseded)!.metrics).DropsQuarantined).toBeUndefined();
  });

  it('yields nothing for a duplicate, a result without a decision, or a decision carried out before this invocation', async () => {
    const decision = await decided('bad');
    expect(decisionMetrics({ ...decision, outcome: 'duplicate' })).toBeUndefined();
    expect(resultMetrics({ reason: 'the marker is gone: this drop was already carried out' }, here)).toBeUndefined();
    expect(resultMetrics({ decision }, () => ({ carriedOutHere: false }))).toBeUndefined();
    expect(resultMetrics({ decision }, here)).toEqual(decisionMetrics(decision));
  });

  it('measures the wait to the end of the carry-out, when consumers have the verdict', async () => {
    const decision = await decided('bad');
    const marker = Date.parse(decision.report.source.marker.last_modified);
    const completed = { ...decision, completed_at: new Date(marker + 42_000).toISOString() };
    expect(byName(decisionMetrics(completed)!.metrics).MarkerToVerdictSeconds).toEqual({ unit: 'Seconds', value: 42 });
  });

  it('never gives a negative wait: decided_at is cut to the second, the marker time is not', async () => {
    const decision = await decided('bad');
    const early = { ...decision, report: { ...decision.report, source: { ...decision.report.source, marker: { ...decision.report.source.marker, last_modified: new Date(Date.parse(decision.decided_at) + 700).toISOString() } } } };
    expect(byName(decisionMetrics(early)!.metrics).MarkerToVerdictSeconds).toEqual({ unit: 'Seconds', value: 0 });
  });
});

describe('contractDimension', () => {
  it('keeps printable ASCII names and percent-escapes what CloudWatch would refuse', () => {
    expect(contractDimension('orders')).toBe('orders');
    expect(contractDimension('Orders-2_x.y')).toBe('Orders-2_x.y');
    expect(contractDimension('çhäos')).toBe('%C3%A7h%C3%A4os');
    expect(contractDimension('a b%\u0007')).toBe('a%20b%25%07');
    expect(contractDimension('\ud800x')).toBe('%EF%BF%BDx');
    expect(contractDimension('x'.repeat(400))).toHaveLength(250);
  });
});
