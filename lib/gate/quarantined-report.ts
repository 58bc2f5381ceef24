import type { Sample } from '../report/report.js';
import type { Decision } from './decision.js';
import type { GateReport } from './gate-report.js';
import { markerKey, quarantinePrefix, type GateLayout } from './gate-layout.js';

/**
 * The report of a quarantined drop as `_REPORT.json` and the notification show it: files and
 * samples named by their quarantine keys, because the staged copies are gone once the drop is
 * carried out. `source` keeps the staging keys, which say where the batch came from; `copies`,
 * the folder's data files as the gate copied them, are what a release or redrive may copy.
 */
export function quarantinedReport(decision: Decision, layout: GateLayout, copies?: GateReport['quarantined']): GateReport {
  const moved = quarantineKeys(decision, layout);
  const where = (key: string) => moved.get(key) ?? key;
  const { report } = decision;
  return {
    ...report,
    ...(copies ? { quarantined: copies } : {}),
    files: report.files.map((file) => ({ ...file, path: where(file.path) })),
    violations: report.violations.map((violation) => ({ ...violation, samples: violation.samples.map((s): Sample => ({ ...s, file: where(s.file) })) })),
  };
}

/** Staging key to quarantine key, for every object carry-out copies: the data files and the marker. */
function quarantineKeys(decision: Decision, layout: GateLayout): Map<string, string> {
  const prefix = quarantinePrefix(layout, decision.address, decision.attempt);
  const moved = new Map(decision.files.map((file) => [file.key, `${prefix}${file.relative}`]));
  moved.set(markerKey(layout, decision.address), `${prefix}${layout.marker}`);
  return moved;
}
