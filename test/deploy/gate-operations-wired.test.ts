import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractGate } from '../../lib/deploy/contract-gate.js';
import { eventDeadLetterQueues, queuesWithVisibleMessageAlarms } from './operations-invariants.js';
import { synthGate, type GateSynth } from './synth-gate.js';

// What ContractGate wires: one gate name for its functions, dashboard, alarms and metric helpers.
let gate: GateSynth;
beforeAll(async () => {
  gate = await synthGate('reg');
});
afterAll(() => gate.dispose());

const functionsGateNames = () => Object.values(gate.template.findResources('AWS::Lambda::Function'))
  .filter((f) => f.Properties.Environment?.Variables?.GATE_BUCKET !== undefined)
  .map((f) => f.Properties.Environment.Variables.GATE_NAME as unknown);

describe('a ContractGate, operated', () => {
  it('tells every one of its functions its gate name', () => {
    const names = functionsGateNames();
    expect(names.length).toBeGreaterThanOrEqual(7);
    expect(new Set(names)).toEqual(new Set([gate.stack.gate.metrics.gateName]));
  });

  it('graphs on its dashboard only the metrics of that gate', () => {
    const body = JSON.stringify(Object.values(gate.template.findResources('AWS::CloudWatch::Dashboard'))[0]!.Properties.DashboardBody);
    const searches = body.match(/SEARCH\([^)]*\)/g) ?? [];
    expect(searches.length).toBeGreaterThan(0);
    for (const search of searches) expect(search).toContain(`Gate=\\\\\\"${gate.stack.gate.metrics.gateName}\\\\\\"`);
  });

  it('gives metric helpers of that gate', () => {
    expect(gate.stack.gate.metricPublished().dimensions).toEqual({ service: 'contract-gate', Gate: gate.stack.gate.metrics.gateName });
    expect(gate.stack.gate.metricQuarantined({ contract: 'orders' }).dimensions).toMatchObject({ contract: 'orders' });
  });

  it('alarms on every queue undeliverable events land in', () => {
    const queues = eventDeadLetterQueues(gate.template);
    expect(queues).toHaveLength(3);
    expect(queuesWithVisibleMessageAlarms(gate.template)).toEqual(expect.arrayContaining(queues));
  });

  it('names its alarms after its namePrefix, and sends every alarm to its actions', () => {
    const alarms = Object.values(gate.template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmName).toMatch(/^contract-gate-reg-/);
      expect(alarm.Properties.AlarmActions).toHaveLength(1);
    }
  });

  it('names no alarm without a namePrefix', () => {
    const stack = new Stack(new App(), 'Lake');
    new ContractGate(stack, 'Gate');
    const alarms = Object.values(Template.fromStack(stack).findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) expect(alarm.Properties.AlarmName).toBeUndefined();
  });
});
