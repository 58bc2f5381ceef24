import { COLUMN_SEVERITY_RULES, type ColumnSeverityRule, type ColumnSpec, type Contract } from '../../lib/contract/model.js';
import { loadContract, matrixYaml, warnEverywhere } from './rule-matrix.js';

/** A contract of the dataset-level features the rule matrix lacks: a composite grain, references, defaults, freshness. */
export const FEATURES_YAML = [
  'name: shipments',
  'version: 2.0.3',
  'owner: { team: logistics, notify: [logistics@example.com] }',
  'description: One row per shipment leg.',
  'produces: { format: csv, partition: "dt={ds}/hr={hh}" }',
  'schema:',
  '  grain: [shipment_id, leg]',
  '  extra_columns: warn',
  '  columns:',
  '    - { name: shipment_id, type: string, required: true, pattern: "^shp_[0-9]{6}$", description: "The shipment, as the carrier knows it." }',
  '    - { name: leg, type: int32, required: true, min: 1, max: 12 }',
  '    - { name: carrier, type: string, references: { contract: carriers, column: code }, default: dhl }',
  '    - { name: reason, type: string, references: { contract: cancel-reasons, column: code, major: 2, partition: "dt=2026-11-30" } }',
  '    - { name: weight_kg, type: "decimal(10,3)", min: 0.001, default: 1.5 }',
  '    - { name: fragile, type: boolean, default: false }',
  '    - { name: picked_up_at, type: timestamp, required: true, not_in_future: true }',
  '    - { name: note, type: string, min_length: 1, description: Free text. }',
  'sla: { max_lag_hours: 3.5, warn_lag_hours: 2, freshness_column: picked_up_at }',
  '',
].join('\n');

/** The rules a column declares, in the order a contract writes them. */
function declaredRules(contract: Contract, column: ColumnSpec): ColumnSeverityRule[] {
  const declared: Record<ColumnSeverityRule, boolean> = {
    required: column.required || contract.schema.grain.includes(column.name), required_when: column.requiredWhen !== undefined, type: true,
    enum: column.enum !== undefined, min: column.min !== undefined, max: column.max !== undefined, pattern: column.pattern !== undefined,
    length: column.minLength !== undefined || column.maxLength !== undefined, not_in_future: column.notInFuture, unique: column.unique, references: column.references !== undefined,
  };
  return COLUMN_SEVERITY_RULES.filter((rule) => declared[rule]);
}

/** Each column's last declared rule at warn (its type when it declares nothing else): severities mixed within one contract. */
function oneRuleAtWarn(contract: Contract): Contract {
  const columns = contract.schema.columns.map((column) => ({ ...column, severity: { [declaredRules(contract, column).at(-1)!]: 'warn' as const } }));
  return { ...contract, schema: { ...contract.schema, columns } };
}

/**
 * The contracts round trips are held to: every column type with every rule of its type, at
 * error, at warn, and mixed, and the dataset-level features. Loaded from YAML, then varied on
 * the object, as exports see contracts.
 */
export function generatedContracts(): [string, Contract][] {
  const matrix = loadContract(matrixYaml());
  return [
    ['the rule matrix', matrix],
    ['the rule matrix, every rule at warn', warnEverywhere(matrix)],
    ['the rule matrix, one rule of each column at warn', oneRuleAtWarn(matrix)],
    ['the rule matrix as Parquet', loadContract(matrixYaml({ format: 'parquet' }))],
    ['a contract of references, defaults, a composite grain and freshness', loadContract(FEATURES_YAML, 'shipments.v2.yaml')],
  ];
}
