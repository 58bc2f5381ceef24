import { COLUMN_SEVERITY_RULES, type ColumnReference, type ColumnSpec, type Severity, type SeverityMap, type Sla } from '../contract/model.js';

type Json = Record<string, unknown>;

/**
 * ODCS quality rules have a `severity` of their own (`info`, `warning`, `error`): a warn rule that
 * is written as a quality rule says so there; error, the gate's default, is left unsaid.
 */
export function odcsSeverity(severity: Severity | undefined): Json {
  return severity === 'warn' ? { severity: 'warning' } : {};
}

/**
 * The severities no quality rule carries, for `contractGate.severity`: `carried` are the rules
 * written as quality rules. Every column rule at warn is written `warn`, as a native contract may.
 */
export function remainingSeverity<Rule extends string>(map: SeverityMap<Rule> | undefined, carried: readonly Rule[], every?: readonly Rule[]): SeverityMap<Rule> | 'warn' | undefined {
  if (!map) return undefined;
  if (every && every.every((rule) => map[rule] === 'warn')) return 'warn';
  const rest = Object.entries(map).filter(([rule, severity]) => severity === 'warn' && !carried.includes(rule as Rule));
  return rest.length > 0 ? (Object.fromEntries(rest) as SeverityMap<Rule>) : undefined;
}

/** A column's severities beyond its enum rule, which says its own. */
export function columnSeverity(column: ColumnSpec): ReturnType<typeof remainingSeverity> {
  return remainingSeverity(column.severity, column.enum ? ['enum'] : [], COLUMN_SEVERITY_RULES);
}

/** ODCS shorthand `table.column`; other names (a `-` in a dataset name) do not fit it. */
const SHORTHAND = /^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A reference as an ODCS v3.1 property-level relationship, `to: contract.column`, when that says
 * all of it; a pinned major or partition, or a name the shorthand cannot hold, needs
 * `contractGate.references` instead (and then no relationship, so it is said once).
 */
export function relationship(reference: ColumnReference): Json | undefined {
  const to = `${reference.contract}.${reference.column}`;
  if (reference.major !== undefined || reference.partition !== undefined || !SHORTHAND.test(to)) return undefined;
  return { type: 'foreignKey', to };
}

/**
 * Volume as rowCount; ODCS wants the two numbers of mustBeBetween distinct. Bounds of different
 * severities are two rules, since a rule has one severity.
 */
export function rowCountRules(sla: Sla | undefined): Json[] {
  const base = { metric: 'rowCount', unit: 'rows' };
  const { minRows, maxRows } = sla ?? {};
  const [low, high] = [sla?.severity?.min_rows, sla?.severity?.max_rows];
  if (minRows !== undefined && maxRows !== undefined && low === high) {
    return [minRows === maxRows ? { ...base, mustBe: minRows, ...odcsSeverity(low) } : { ...base, mustBeBetween: [minRows, maxRows], ...odcsSeverity(low) }];
  }
  return [
    ...(minRows !== undefined ? [{ ...base, mustBeGreaterOrEqualTo: minRows, ...odcsSeverity(low) }] : []),
    ...(maxRows !== undefined ? [{ ...base, mustBeLessOrEqualTo: maxRows, ...odcsSeverity(high) }] : []),
  ];
}

/** The SLA's severities beyond min_rows and max_rows, which its rowCount rules say. */
export function slaSeverity(sla: Sla): SeverityMap<string> | undefined {
  const carried = [...(sla.minRows !== undefined ? ['min_rows'] : []), ...(sla.maxRows !== undefined ? ['max_rows'] : [])];
  const rest = remainingSeverity<string>(sla.severity, carried);
  return rest === 'warn' ? undefined : rest;
}
