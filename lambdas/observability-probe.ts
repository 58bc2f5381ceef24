import { contractDimension } from '../lib/gate/outcome-metrics.js';
import type { ProbeReport } from '../lib/sla/probe.js';
import { publishContractMetrics, publishServiceMetrics } from './observability.js';

/**
 * The probe's metrics. ProbeMisses is a level, not an event: each run counts the partitions of a
 * contract that are missed now (due, past grace, not published), so it stays up while a
 * partition is missing and falls to 0 once it is published; alarm on its Maximum. It is
 * published, 0 included, for every contract that had a partition due in the look-back window,
 * so its alarm sees data rather than silence on a good day.
 */
export function probeMetricValues(report: ProbeReport): { checked: number; misses: ReadonlyMap<string, number> } {
  const misses = new Map<string, number>();
  for (const partition of report.partitions) {
    const contract = contractDimension(partition.contract);
    misses.set(contract, (misses.get(contract) ?? 0) + (partition.status === 'missed' ? 1 : 0));
  }
  return { checked: report.partitions.length, misses };
}

export function publishProbeMetrics(report: ProbeReport): void {
  const { checked, misses } = probeMetricValues(report);
  publishServiceMetrics([{ name: 'ProbeChecked', unit: 'Count', value: checked }]);
  for (const [contract, value] of misses) publishContractMetrics({ contract, metrics: [{ name: 'ProbeMisses', unit: 'Count', value }] });
}
