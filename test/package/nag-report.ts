import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What CDK writes beside the templates when a validation plugin (cdk-nag) is registered. */
export const VALIDATION_REPORT = 'validation-report.json';

interface ValidationReport {
  readonly pluginReports: {
    readonly pluginName: string;
    readonly violations?: { readonly ruleName: string; readonly severity?: string; readonly violatingConstructs?: { readonly constructPath: string }[] }[];
  }[];
}

/**
 * The cdk-nag AwsSolutions findings left unacknowledged in a synthesized assembly, as
 * `<rule> (<severity>) at <construct path>`, read from the validation report CDK writes even
 * when the synth then fails on them. A clean report lists no plugin at all, so it cannot tell a
 * clean app from one without cdk-nag: the caller makes sure the app registered it (the company
 * app reports its plugins). No report at all is an error.
 */
export function nagFindings(assemblyDir: string, options: { readonly severity?: 'error' | 'warning' } = {}): string[] {
  const file = join(assemblyDir, VALIDATION_REPORT);
  if (!existsSync(file)) {
    throw new Error(`no ${VALIDATION_REPORT} in ${assemblyDir}: no validation ran; register cdk-nag (addAwsSolutionsChecks(app) or Validations.of(app).addPlugins(new AwsSolutionsChecks(app))) before app.synth()`);
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as ValidationReport;
  return report.pluginReports.filter((r) => r.pluginName === 'AwsSolutions').flatMap((r) => r.violations ?? [])
    .filter((v) => options.severity === undefined || (v.severity ?? 'error') === options.severity)
    .flatMap((v) => (v.violatingConstructs ?? []).map((c) => `${v.ruleName} (${v.severity ?? 'error'}) at ${c.constructPath}`));
}
