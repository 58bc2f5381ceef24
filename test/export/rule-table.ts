import { severityOf } from '../../lib/checks/rule-severity.js';
import { formatColumnType } from '../../lib/contract/column-type.js';
import type { ColumnSpec, Contract } from '../../lib/contract/model.js';
import type { RuleId } from '../../lib/report/report.js';

/** What a format can say of a contract; a round trip is compared on what both sides say. */
export type Facet =
  | 'name' | 'version' | 'format' | 'partition' | 'description' | 'grain' | 'extra_columns' | 'schema_severity'
  | 'type' | 'presence' | 'required_when' | 'enum' | 'bounds' | 'pattern' | 'length' | 'unique' | 'not_in_future'
  | 'references' | 'reference_pins' | 'default' | 'severity' | 'freshness';

/**
 * A contract as one line per rule, e.g. `price min 0 (warn)`: two contracts that check the same
 * things have the same lines. A column's presence is what the gate checks (required or in the
 * grain), and a severity is the one the gate applies, whichever way the contract spelled it.
 */
export function ruleTable(contract: Contract, facets: readonly Facet[]): string[] {
  const has = (facet: Facet) => facets.includes(facet);
  const weigh = severityOf(contract);
  const weight = (rule: RuleId, column?: string) => (has('severity') || has('schema_severity') ? ` (${weigh(rule, column)})` : '');
  const { schema } = contract;
  const lines = [
    ...(has('name') ? [`name ${contract.name}`] : []),
    ...(has('version') ? [`version ${contract.version.text}`] : []),
    ...(has('format') ? [`format ${contract.produces.format}`] : []),
    ...(has('partition') ? [`partition ${contract.produces.partition}`] : []),
    ...(has('description') && contract.description ? [`description ${contract.description}`] : []),
    ...(has('grain') ? [`grain ${schema.grain.join(', ')}${has('schema_severity') ? weight('grain') : ''}`] : []),
    // `reject` at severity warn reports an extra column and blocks nothing, as `warn` does.
    ...(has('extra_columns') ? [`extra_columns ${schema.extraColumns === 'reject' && weigh('unexpected_column') === 'warn' ? 'warn' : schema.extraColumns}`] : []),
    ...(has('freshness') ? freshnessLines(contract) : []),
  ];
  return [...lines, ...schema.columns.flatMap((column) => columnLines(contract, column, has, (rule) => (has('severity') ? weight(rule, column.name) : '')))];
}

function columnLines(contract: Contract, column: ColumnSpec, has: (facet: Facet) => boolean, weight: (rule: RuleId) => string): string[] {
  const at = (text: string) => `${column.name} ${text}`;
  const mustHaveValue = column.required || contract.schema.grain.includes(column.name);
  const when = column.requiredWhen;
  const reference = column.references;
  return [
    ...(has('type') ? [at(`type ${formatColumnType(column.type)}${weight('type')}`)] : []),
    ...(has('presence') && mustHaveValue ? [at(`has a value${weight('required')}`)] : []),
    ...(has('required_when') && when ? [at(`has a value when ${when.column} in ${when.in.join(', ')}${weight('required')}`)] : []),
    ...(has('enum') && column.enum ? [at(`one of ${column.enum.join(', ')}${weight('enum')}`)] : []),
    ...(has('bounds') && column.min !== undefined ? [at(`min ${column.min}${weight('min')}`)] : []),
    ...(has('bounds') && column.max !== undefined ? [at(`max ${column.max}${weight('max')}`)] : []),
    ...(has('pattern') && column.pattern !== undefined ? [at(`pattern ${column.pattern}${weight('pattern')}`)] : []),
    ...(has('length') && (column.minLength !== undefined || column.maxLength !== undefined) ? [at(`length ${column.minLength ?? 0}..${column.maxLength ?? '∞'}${weight('length')}`)] : []),
    ...(has('unique') && column.unique ? [at(`unique${weight('unique')}`)] : []),
    ...(has('not_in_future') && column.notInFuture ? [at(`not in the future${weight('not_in_future')}`)] : []),
    ...(has('references') && reference ? [at(`references ${reference.contract}.${reference.column}${has('reference_pins') ? ` ${reference.major ?? ''} ${reference.partition ?? ''}` : ''}${weight('references')}`)] : []),
    ...(has('default') && column.default !== undefined ? [at(`default ${JSON.stringify(column.default)}`)] : []),
    ...(has('description') && column.description ? [at(`description ${column.description}`)] : []),
  ];
}

/** Freshness by what it does: the lag at which the gate warns, and the lag at which it fails the drop. */
function freshnessLines(contract: Contract): string[] {
  const sla = contract.sla;
  if (!sla?.freshnessColumn || (sla.maxLagHours === undefined && sla.warnLagHours === undefined)) return [];
  const onlyWarns = sla.severity?.freshness === 'warn';
  const warnAt = sla.warnLagHours ?? (onlyWarns ? sla.maxLagHours : undefined);
  const failAt = onlyWarns ? undefined : sla.maxLagHours;
  return [`freshness of ${sla.freshnessColumn}: warns after ${warnAt ?? '-'} h, fails after ${failAt ?? '-'} h`];
}
