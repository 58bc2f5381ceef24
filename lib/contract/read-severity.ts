import { isScalar, type Node } from 'yaml';
import type { ColumnSeverityRule, ColumnSpec, ContractSchema, Severity, SeverityMap, Sla, SlaSeverityRule, SchemaSeverityRule } from './model.js';
import { foreignKeyHints } from './foreign-keys.js';
import type { YamlReader } from './yaml-reader.js';

const SEVERITIES = ['error', 'warn'] as const;

export interface SeverityRead<Rule extends string> {
  /** Only the rules set to `warn`; undefined when none is (an absent rule is an error). */
  readonly map?: SeverityMap<Rule>;
  /** The rules a `{ rule: severity }` mapping names, by their key, to check they are declared. */
  readonly named: ReadonlyMap<Rule, Node>;
}

/**
 * Reads a `severity` mapping of `rule: error | warn`. With `shorthand` (a column), a single
 * `warn` stands for every rule and `error` for none.
 */
export function readSeverity<Rule extends string>(reader: YamlReader, node: Node | null, path: string, rules: readonly Rule[], shorthand = false): SeverityRead<Rule> {
  const resolved = reader.resolve(node);
  if (resolved && isScalar(resolved)) {
    if (shorthand) return { map: readSeverityValue(reader, resolved, path) === 'warn' ? allWarn(rules) : undefined, named: new Map() };
    reader.report('wrong_type', path, resolved, `expected a mapping of rule to error or warn, e.g. { ${rules[0] ?? 'rule'}: warn }; rules: ${rules.join(', ')}`);
    return { named: new Map() };
  }
  const entries = reader.map(resolved, path, rules, foreignKeyHints('severity'));
  const map: Partial<Record<Rule, Severity>> = {};
  const named = new Map<Rule, Node>();
  for (const [key, { key: keyNode, value }] of entries ?? []) {
    const rule = rules.find((r) => r === key);
    const severity = readSeverityValue(reader, value, `${path}.${key}`);
    if (rule === undefined || severity === undefined) continue;
    named.set(rule, keyNode);
    if (severity === 'warn') map[rule] = 'warn';
  }
  return { map: Object.keys(map).length > 0 ? map : undefined, named };
}

/** `warning` is how reports spell it, and too far from `warn` for "did you mean". */
function readSeverityValue(reader: YamlReader, node: Node | null, path: string): Severity | undefined {
  const resolved = reader.resolve(node);
  if (!(resolved && isScalar(resolved) && resolved.value === 'warning')) return reader.oneOf(node, path, SEVERITIES);
  reader.report('invalid_value', path, resolved, 'expected one of error, warn, found "warning"; did you mean "warn"?');
  return undefined;
}

function allWarn<Rule extends string>(rules: readonly Rule[]): SeverityMap<Rule> {
  return Object.fromEntries(rules.map((rule) => [rule, 'warn'])) as SeverityMap<Rule>;
}

/**
 * A severity for a rule that is not there changes nothing, which is likely not what was meant: a
 * warning naming what declares the rule. The entry is left out of the map.
 */
export function withoutUndeclared<Rule extends string>(reader: YamlReader, path: string, read: SeverityRead<Rule>, declares: Readonly<Record<Rule, string | undefined>>, owner: string): SeverityMap<Rule> | undefined {
  const map: Partial<Record<Rule, Severity>> = { ...read.map };
  for (const [rule, keyNode] of read.named) {
    const declaredBy = declares[rule];
    if (declaredBy === undefined) continue;
    reader.report('rule_not_declared', `${path}.${rule}`, keyNode, `${owner} declares no ${rule} rule, so its severity changes nothing; declare it (${declaredBy}) or remove ${rule} from severity`, 'warning');
    delete map[rule];
  }
  return Object.keys(map).length > 0 ? map : undefined;
}

/**
 * For each column rule, how to declare it when the column does not, or undefined when it does. A
 * rule whose key is `written` but wrong was reported already and counts as declared.
 */
export function undeclaredColumnRules(column: ColumnSpec, inGrain: boolean, written: (key: string) => boolean): Record<ColumnSeverityRule, string | undefined> {
  const unless = (declared: boolean, how: string) => (declared ? undefined : how);
  const has = (key: string, value: unknown) => value !== undefined || written(key);
  return {
    required: unless(column.required || inGrain, 'required: true, or list the column in schema.grain'),
    required_when: unless(has('required_when', column.requiredWhen), 'required_when: { column, in }'),
    type: undefined,
    enum: unless(has('enum', column.enum), 'enum: [...]'),
    min: unless(has('min', column.min), 'min'),
    max: unless(has('max', column.max), 'max'),
    pattern: unless(has('pattern', column.pattern), 'pattern'),
    length: unless(has('min_length', column.minLength) || has('max_length', column.maxLength), 'min_length or max_length'),
    not_in_future: unless(column.notInFuture, 'not_in_future: true'),
    unique: unless(column.unique, 'unique: true'),
    references: unless(has('references', column.references), 'references: { contract, column }'),
  };
}

export function undeclaredSchemaRules(schema: Pick<ContractSchema, 'grain' | 'extraColumns'>): Record<SchemaSeverityRule, string | undefined> {
  return {
    grain: schema.grain.length > 0 ? undefined : 'schema.grain: [...]',
    extra_columns: schema.extraColumns !== 'allow' ? undefined : 'extra_columns: warn or reject',
  };
}

export function undeclaredSlaRules(sla: Pick<Sla, 'minRows' | 'maxRows' | 'volumeVsHistory' | 'maxLagHours' | 'warnLagHours'>): Record<SlaSeverityRule, string | undefined> {
  return {
    min_rows: sla.minRows !== undefined ? undefined : 'min_rows',
    max_rows: sla.maxRows !== undefined ? undefined : 'max_rows',
    volume_vs_history: sla.volumeVsHistory !== undefined ? undefined : 'volume_vs_history: { min_ratio, max_ratio }',
    freshness: sla.maxLagHours !== undefined || sla.warnLagHours !== undefined ? undefined : 'max_lag_hours with freshness_column',
  };
}
