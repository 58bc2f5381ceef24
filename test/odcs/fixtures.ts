import type { CheckPlan } from '../../lib/checks/check-plan.js';

export function yaml(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

/** A native contract using every feature the model has; `no` checks quoting for YAML 1.1 readers. */
export const EVERY_FEATURE = yaml(
  'name: shipments',
  'version: 2.3.1',
  'status: deprecated',
  'sunset: "2027-03-31"',
  'owner: { team: logistics, notify: [logistics-oncall@example.com, "arn:aws:sns:eu-central-1:123456789012:logistics"] }',
  'description: One row per shipment leg, per hour.',
  'produces: { format: csv, partition: "dt={ds}/hr={hh}" }',
  'schema:',
  '  grain: [shipment_id, leg]',
  '  extra_columns: reject',
  '  columns:',
  '    - { name: shipment_id, type: string, required: true, pattern: "^shp_[0-9]{6}$", min_length: 10, max_length: 10 }',
  '    - { name: leg, type: int32, required: true, min: 1, max: 12 }',
  '    - { name: carrier, type: string, required: true, enum: [dhl, ups, "no"] }',
  '    - { name: weight_kg, type: "decimal(10,3)", min: 0.001, max: 99999.999 }',
  '    - { name: distance_km, type: float64, min: 0 }',
  '    - { name: pieces, type: int64, max: 1000, default: 1 }',
  '    - { name: fragile, type: boolean, default: false }',
  '    - { name: tracking_code, type: string, unique: true, description: "The carrier\'s code: unique per leg." }',
  '    - { name: cancel_reason, type: string, required_when: { column: carrier, in: [dhl, 7, true] }, min_length: 3 }',
  '    - { name: ship_date, type: date, required: true, min: "2020-01-01", max: "2030-12-31" }',
  '    - { name: picked_up_at, type: timestamp, required: true, not_in_future: true, min: "2020-01-01T00:00:00Z" }',
  '    - { name: local_eta, type: timestamp_ntz, max: "2031-01-01T00:00:00" }',
  '    - { name: label, type: binary }',
  '    - { name: weight_lb, type: float32 }',
  'sla:',
  '  schedule: hourly',
  '  arrival_by: "00:45"',
  '  timezone: America/New_York',
  '  partition_lag: 2',
  '  grace_minutes: 15',
  '  skip_dates: ["2026-12-25", "2027-01-01"]',
  '  max_lag_hours: 3.5',
  '  freshness_column: picked_up_at',
  '  min_rows: 10',
  '  max_rows: 200000',
  'consumers:',
  '  - { team: billing, notify: [billing@example.com], columns: [shipment_id, weight_kg] }',
  '  - { team: analytics }',
  'compat: { mode: full }',
);

/** Smaller native contracts for the corners EVERY_FEATURE cannot hold at once. */
export const VARIANTS: Readonly<Record<string, string>> = {
  'cron schedule, json lines, one row count, no description': yaml(
    'name: events',
    'version: 0.1.0',
    'owner: { team: web, notify: [web@example.com] }',
    'produces: { format: jsonl }',
    'schema:',
    '  columns:',
    '    - { name: event_id, type: string }',
    '    - { name: at, type: timestamp }',
    'sla: { schedule: "30 6 * * 1-5", timezone: Europe/Berlin, min_rows: 5, max_rows: 5 }',
    'compat: { mode: none }',
  ),
  'freshness column without a lag, weekdays': yaml(
    'name: rates',
    'version: 3.0.0',
    'status: retired',
    'owner: { team: treasury, notify: ["#treasury-alerts"] }',
    'produces: { format: parquet, partition: "date={ds}" }',
    'schema:',
    '  columns:',
    '    - { name: day, type: date, required: true }',
    'sla: { schedule: weekdays, arrival_by: "18:30", timezone: UTC, freshness_column: day, max_rows: 100 }',
  ),
  'an SLA of defaults only': yaml(
    'name: empty_sla',
    'version: 1.0.0',
    'owner: { team: t, notify: [t@example.com] }',
    'produces: { format: parquet }',
    'schema:',
    '  columns:',
    '    - { name: id, type: int64 }',
    'sla: {}',
  ),
};

/** A check plan without its compiled rule functions, which no two builds share; severities as a table instead. */
export function comparablePlan(plan: CheckPlan): unknown {
  const { severityOf, ...rest } = plan;
  const rules = ['type', 'required', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future', 'unique', 'references', 'grain', 'unexpected_column', 'min_rows', 'max_rows', 'volume_vs_history', 'freshness'] as const;
  const severities = plan.columns.flatMap((c) => rules.map((rule) => `${c.spec.name} ${rule} ${severityOf(rule, c.spec.name)}`));
  return { ...rest, severities, columns: plan.columns.map((c) => ({ ...c, rules: c.rules.map(({ fails: _fails, ...rule }) => rule) })) };
}

type Contract = import('../../lib/contract/model.js').Contract;
type ColumnSpec = import('../../lib/contract/model.js').ColumnSpec;

const EVERY_RULE_WARN = Object.fromEntries(
  ['required', 'required_when', 'type', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future', 'unique', 'references'].map((rule) => [rule, 'warn']),
);

/**
 * EVERY_FEATURE (loaded) with every rule key of issue 17, built on the object so the ODCS tests
 * do not depend on how the native loader spells them: severities at every level (one column all
 * warn, one only its enum, which the ODCS quality rule carries), references that fit ODCS's
 * `to: table.column` and one that does not, a row tolerance, warn_lag_hours and volume_vs_history.
 */
export function withRuleKeys(contract: Contract, variant: 'share' | 'count' = 'share'): Contract {
  const edits: Record<string, (c: ColumnSpec) => ColumnSpec> = {
    shipment_id: (c) => ({ ...c, severity: { pattern: 'warn', length: 'warn' } }),
    leg: (c) => ({ ...c, severity: EVERY_RULE_WARN }),
    carrier: (c) => ({ ...c, severity: { enum: 'warn' } }),
    weight_kg: (c) => ({ ...c, severity: { min: 'warn' } }),
    tracking_code: (c) => ({ ...c, references: { contract: 'carriers', column: 'tracking_code' }, severity: { references: 'warn' } }),
    cancel_reason: (c) => ({ ...c, references: { contract: 'cancel-reasons', column: 'code', major: 2, partition: 'dt=2026-11-30' } }),
  };
  const columns = contract.schema.columns.map((c) => edits[c.name]?.(c) ?? c);
  const share = variant === 'share';
  return {
    ...contract,
    schema: { ...contract.schema, columns, ...(share ? { severity: { grain: 'warn', extra_columns: 'warn' } } : { extraColumns: 'warn' }) },
    sla: {
      ...contract.sla!,
      warnLagHours: 2,
      volumeVsHistory: share ? { lookback: 14, minRatio: 0.5, maxRatio: 2 } : { lookback: 7, maxRatio: 3 },
      severity: share ? { min_rows: 'warn', volume_vs_history: 'warn', freshness: 'warn' } : { min_rows: 'warn', max_rows: 'warn' },
    },
    onViolation: share ? { rowTolerance: 0.02 } : { maxInvalidRows: 100 },
  } as Contract;
}
