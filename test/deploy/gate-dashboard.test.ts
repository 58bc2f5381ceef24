import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { GateDashboard } from '../../lib/deploy/gate-dashboard.js';

/** Two gates in one stack, each with a dashboard and alarms, one alarm made after its dashboard. */
function twoGates() {
  const stack = new Stack(new App(), 'Lake');
  const alarm = (scope: Construct, id: string) => new Alarm(scope, id, { metric: new Metric({ namespace: 'X', metricName: id }), threshold: 1, evaluationPeriods: 1 });
  const gates = ['lake-prod', 'lake-dev'].map((gateName) => {
    const gate = new Construct(stack, gateName);
    alarm(gate, 'Early');
    const dashboard = new GateDashboard(gate, 'Dashboard', { gateName });
    alarm(new Construct(gate, 'Fanout'), 'Late');
    return { gate, dashboard };
  });
  const template = Template.fromStack(stack);
  const body = (i: number) => JSON.stringify(template.toJSON().Resources[stack.getLogicalId(gates[i]!.dashboard.dashboard.node.defaultChild as never)].Properties.DashboardBody);
  return { stack, gates, template, body };
}

describe('GateDashboard', () => {
  const { stack, gates, template, body } = twoGates();

  it('graphs only its own gate\'s metrics: every SEARCH names the Gate dimension and its value', () => {
    const searches = body(0).match(/SEARCH\([^)]*\)/g) ?? [];
    expect(searches).toHaveLength(10);
    for (const search of searches) {
      expect(search).toContain('{ContractGate,contract,Gate,service}');
      expect(search).toContain('Gate=\\\\\\"lake-prod\\\\\\"');
    }
    expect(body(1)).toContain('Gate=\\\\\\"lake-dev\\\\\\"');
    expect(body(1)).not.toContain('lake-prod');
  });

  it('shows every alarm under its gate, those made after it included, and none of the other gate\'s', () => {
    const ids = (gate: Construct) => gate.node.findAll().filter((c) => c instanceof Alarm).map((a) => stack.getLogicalId((a as Alarm).node.defaultChild as never));
    const [prod, dev] = gates.map((g) => ids(g.gate));
    expect(prod).toHaveLength(2);
    for (const id of prod!) expect(body(0)).toContain(`"${id}","Arn"`);
    for (const id of dev!) expect(body(0)).not.toContain(id);
  });

  it('takes the name CloudFormation generates unless given one', () => {
    expect(Object.values(template.findResources('AWS::CloudWatch::Dashboard')).map((d) => d.Properties.DashboardName)).toEqual([undefined, undefined]);
  });
});
