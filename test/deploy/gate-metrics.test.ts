import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { GateMetrics } from '../../lib/deploy/gate-metrics.js';

describe('GateMetrics', () => {
  const metrics = new GateMetrics('lake-prod');

  it('gives each outcome as the gate-wide figure the handlers publish: namespace ContractGate, dimensions service and Gate', () => {
    const outcomes = { DropsPublished: metrics.metric('DropsPublished'), DropsQuarantined: metrics.metric('DropsQuarantined'), DropsRefused: metrics.metric('DropsRefused'), DropsSuperseded: metrics.metric('DropsSuperseded'), MarkerFailures: metrics.metric('MarkerFailures') };
    for (const [name, metric] of Object.entries(outcomes)) {
      expect(metric).toMatchObject({ namespace: 'ContractGate', metricName: name, statistic: 'Sum', dimensions: { service: 'contract-gate', Gate: 'lake-prod' } });
    }
  });

  it('narrows to one contract, and takes the options of any CDK metric', () => {
    const metric = metrics.metric('DropsQuarantined', { contract: 'orders', statistic: 'Maximum', label: 'orders quarantined' });
    expect(metric).toMatchObject({ statistic: 'Maximum', label: 'orders quarantined', dimensions: { service: 'contract-gate', Gate: 'lake-prod', contract: 'orders' } });
    expect(metrics.metric('ValidationSeconds').statistic).toBe('p90');
  });

  it('renders as an alarm\'s metric would in a template', () => {
    const stack = new Stack(new App(), 'M');
    const config = metrics.metric('DropsPublished').toMetricConfig().metricStat!;
    expect(stack.resolve(config.dimensions)).toEqual(expect.arrayContaining([{ name: 'service', value: 'contract-gate' }, { name: 'Gate', value: 'lake-prod' }]));
    expect(config.dimensions).toHaveLength(2);
  });

  it('searches per contract of its gate only, its name quoted safely', () => {
    expect(metrics.searchPerContract('RowsChecked', 'Sum').expression).toBe('SEARCH(\'{ContractGate,contract,Gate,service} Gate="lake-prod" MetricName="RowsChecked"\', \'Sum\', 300)');
    expect(new GateMetrics('a"b').searchPerContract('RowsChecked', 'Sum').expression).toContain('Gate="a\\"b"');
  });
});
