import { formatColumnType } from '../../lib/contract/column-type.js';
import type { SpecColumn, SpecContract } from './contract-spec.js';

/** JSON strings are YAML double-quoted scalars, so every string goes through JSON.stringify. */
const quote = (value: string | number | boolean) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

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
    '  columns:',
    ...contract.columns.map((column) => `    - ${columnYaml(column)}`),
    ...slaYaml(contract),
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
  return `{ ${fields.join(', ')} }`;
}

function slaYaml(contract: SpecContract): string[] {
  const { minRows, maxRows, freshness } = contract.sla;
  const fields = [
    ...(minRows === undefined ? [] : [`  min_rows: ${minRows}`]),
    ...(maxRows === undefined ? [] : [`  max_rows: ${maxRows}`]),
    ...(freshness ? [`  freshness_column: ${quote(freshness.column)}`, `  max_lag_hours: ${freshness.maxLagHours}`] : []),
  ];
  return fields.length === 0 ? [] : ['sla:', ...fields];
}
