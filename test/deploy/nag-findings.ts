import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { GateSynth } from './synth-gate.js';

/** Unacknowledged AwsSolutions findings, errors and warnings alike, as `rule at path` lines. */
export function nagFindings(scope: IConstruct): string[] {
  return new AwsSolutionsChecks().validateScope(scope).violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} (${v.severity}) at ${r.constructPath}`));
}

/** What the synth's validation report lists as unsuppressed, for every plugin (cdk-nag and CDK's own checks). */
export function reportedViolations(gate: GateSynth): unknown[] {
  const report = JSON.parse(readFileSync(join(gate.assembly.directory, 'validation-report.json'), 'utf8')) as { pluginReports: { violations?: unknown[] }[] };
  return report.pluginReports.flatMap((r) => r.violations ?? []);
}

/** Every acknowledgement in the tree: construct path, rule id, reason. */
export function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({ path: c.node.path, id: id.replace(/^annotation::/i, ''), reason }))),
  );
}
