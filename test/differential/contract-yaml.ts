import { formatColumnType } from '../../lib/contract/column-type.js';
import type { SpecColumn, SpecContract } from './contract-spec.js';

/** JSON strings are YAML double-quoted scalars, so every string goes through JSON.stringify. */
const quote = (value: string | number | bigint | boolean) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** The contract file text for a spec; the file name must be `<name>.v1.yaml`. */
export function contractYaml(contract: SpecContract): string {
  const lines = [
    `name: ${contract.name}`,
    'version: 1.0.0',
    'owner: { team: differential, notify: [oracle@example.com] }',
    `produces: { format: ${contract.format}, partition: "dt={ds}" }`,
    'schema:',
    `  grain: [${contract.grain.map(quote).join(', ')}]`,
    `  extra_columns: ${contract.extraColumns}`,
    ...(contract.schemaSeverity ? [`  severity: ${severityMap(contract.schemaSeverity)}`] : []),
    '  columns:',
    ...contract.columns.map((column) => `    - ${columnYaml(column)}`),
    ...slaYaml(contract),
    ...toleranceYaml(contract),
  ];
  return `${lines.join('\n')}\n`;
}

function columnYaml(column: SpecColumn): string {
  const fields: string[] = [`name: ${quote(column.name)}`, `type: ${quote(formatColumnType(column.type))}`];
  if (column.required) fields.push('required: true');
  if (column.requiredWhen) {
    fields.push(`required_when: { column: ${quote(column.requiredWhen.column)}, in: [${column.requiredWhen.in.map(quote).join(', ')}] }`);
  }
  if (column.enum) fields.push(`enum: [${column.enum.map(quote).join(', ')}]`);
  if (column.min) fields.push(`min: ${column.min.yaml}`);
  if (column.max) fields.push(`max: ${column.max.yaml}`);
  if (column.pattern !== undefined) fields.push(`pattern: ${quote(column.pattern)}`);
  if (column.minLength !== undefined) fields.push(`min_length: ${column.minLength}`);
  if (column.maxLength !== undefined) fields.push(`max_length: ${column.maxLength}`);
  if (column.unique) fields.push('unique: true');
  if (column.notInFuture) fields.push('not_in_future: true');
  if (column.references) fields.push(`references: { contract: ${column.references.contract}, column: ${quote(column.references.column)} }`);
  if (column.severity) fields.push(`severity: ${'all' in column.severity ? column.severity.all : severityMap(column.severity.rules)}`);
  return `{ ${fields.join(', ')} }`;
}

function severityMap(rules: Readonly<Record<string, string>>): string {
  return `{ ${Object.entries(rules).map(([rule, severity]) => `${rule}: ${severity}`).join(', ')} }`;
}

function slaYaml(contract: SpecContract): string[] {
  const { minRows, maxRows, freshness, volumeVsHistory: volume, severity } = contract.sla;
  const fields = [
    ...(minRows === undefined ? [] : [`  min_rows: ${minRows}`]),
    ...(maxRows === undefined ? [] : [`  max_rows: ${maxRows}`]),
    ...(freshness ? [`  freshness_column: ${quote(freshness.column)}`] : []),
    ...(freshness?.maxLagHours === undefined ? [] : [`  max_lag_hours: ${freshness.maxLagHours}`]),
    ...(freshness?.warnLagHours === undefined ? [] : [`  warn_lag_hours: ${freshness.warnLagHours}`]),
    ...(volume ? [`  volume_vs_history: { ${volumeFields(volume).join(', ')} }`] : []),
    ...(severity ? [`  severity: ${severityMap(severity)}`] : []),
  ];
  return fields.length === 0 ? [] : ['sla:', ...fields];
}

function volumeFields(volume: NonNullable<SpecContract['sla']['volumeVsHistory']>): string[] {
  return [
    `lookback: ${volume.lookback}`,
    ...(volume.minRatio === undefined ? [] : [`min_ratio: ${volume.minRatio}`]),
    ...(volume.maxRatio === undefined ? [] : [`max_ratio: ${volume.maxRatio}`]),
  ];
}

function toleranceYaml(contract: SpecContract): string[] {
  const { tolerance } = contract;
  if (!tolerance) return [];
  return [`on_violation: { ${'fraction' in tolerance ? `row_tolerance: ${tolerance.fraction}` : `max_invalid_rows: ${tolerance.rows}`} }`];
}
