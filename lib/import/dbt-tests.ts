import type { Node } from 'yaml';
import { datasetNameProblem } from '../contract/dataset-name.js';
import type { ColumnRules } from './column-rules.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportLog } from './import-log.js';
import type { SourceNodes } from './source-nodes.js';

/** One dbt test: `not_null`, or `{ accepted_values: { values: [...] } }` (dbt 1.10: under `arguments`). */
export interface DbtTest {
  readonly name: string;
  /** The test's arguments mapping, if any. */
  readonly args: Node | null | undefined;
  /** The test's `config` (severity, where, error_if). */
  readonly config: Node | null | undefined;
  readonly node: Node | null;
  readonly path: string;
}

/** The tests of a model or column, under `data_tests` (dbt 1.8+) or `tests`. */
export function dbtTests(nodes: SourceNodes, owner: Node | null | undefined, path: string): DbtTest[] {
  return ['data_tests', 'tests'].flatMap((key) => nodes.items(nodes.child(owner, key)).map((node, i) => {
    const name = nodes.text(node) ?? nodes.keys(node)[0] ?? '?';
    const body = nodes.text(node) === undefined ? nodes.child(node, name) : undefined;
    const args = nodes.child(body, 'arguments') ?? body;
    return { name, args, config: nodes.child(body, 'config') ?? nodes.child(args, 'config'), node, path: `${path}.${key}[${i}]` };
  }));
}

/** Whether the test runs at `severity: warn`. */
export function warnsOnly(nodes: SourceNodes, test: DbtTest): boolean {
  return nodes.text(nodes.child(test.config, 'severity'))?.toLowerCase() === 'warn';
}

/**
 * A column test as native rules, with their severity. `relationships` to a `ref()` or `source()`
 * becomes `references` to the contract of that name; anything else the gate cannot check
 * becomes a comment and a warning.
 */
export function applyColumnTest(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, column: DraftColumn, index: number, test: DbtTest, hard: Set<string>, grain?: readonly string[]): void {
  const set = applyTest(nodes, log, rules, column, index, test, grain);
  const warn = warnsOnly(nodes, test);
  for (const rule of set) {
    // `hard`: the rules a constraint or an error test states. All of them hold, so an error wins.
    if (warn && !hard.has(rule)) {
      column.severity = { ...column.severity, [rule]: 'warn' };
      continue;
    }
    hard.add(rule);
    if (column.severity?.[rule]) {
      const { [rule]: _dropped, ...rest } = column.severity;
      column.severity = Object.keys(rest).length > 0 ? rest : undefined;
      if (column.severity === undefined) delete column.severity;
    }
  }
}

/** On the model's one key column, `unique` is the grain's rule (dbt projects test a primary key so), not a rule of the column. */
function unique(column: DraftColumn, grain: readonly string[] | undefined): string[] {
  if (grain?.length === 1 && grain[0] === column.name) return [];
  column.unique = true;
  return ['unique'];
}

/** The test without its package: `dbt_utils.accepted_range` and `accepted_range` are one test. */
function baseName(name: string): string {
  return name.replace(/^(dbt_utils|dbt_expectations)\./, '');
}

/** The rules the test set (their severity keys); none when the gate cannot check it. */
function applyTest(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, column: DraftColumn, index: number, test: DbtTest, grain: readonly string[] | undefined): string[] {
  const arg = (key: string) => nodes.child(test.args, key);
  const base = baseName(test.name);
  if (test.name === 'not_null') {
    column.required = true;
    return ['required'];
  }
  if (test.name === 'unique') return unique(column, grain);
  if (test.name === 'accepted_values') {
    const values = nodes.scalars(arg('values'));
    if (values) rules.enumOf(values, test.path, test.node);
    else log.error(test.path, test.node, 'accepted_values needs its values: { accepted_values: { values: [a, b] } }');
    return column.enum ? ['enum'] : [];
  }
  if ((base === 'accepted_range' && nodes.value(arg('inclusive')) !== false) || (base === 'expect_column_values_to_be_between' && nodes.value(arg('strictly')) !== true)) {
    return bounds(nodes, log, rules, column, index, test);
  }
  if (base === 'expect_column_values_to_match_regex' && nodes.text(arg('regex'))) {
    rules.pattern(nodes.text(arg('regex'))!, test.path, test.node);
    return column.pattern === undefined ? [] : ['pattern'];
  }
  if (base === 'expect_column_value_lengths_to_be_between') {
    const [low, high] = [nodes.number(arg('min_value')), nodes.number(arg('max_value'))];
    if (low !== undefined) rules.length('min_length', low, test.path, test.node);
    if (high !== undefined) rules.length('max_length', high, test.path, test.node);
    return column.min_length !== undefined || column.max_length !== undefined ? ['length'] : [];
  }
  if (base === 'expression_is_true' && /^\s*<=\s*(current_timestamp|current_date|now)(\s*\(\s*\))?\s*$/i.test(nodes.text(arg('expression')) ?? '')) {
    rules.notInFuture(test.path, test.node);
    return column.not_in_future ? ['not_in_future'] : [];
  }
  const target = test.name === 'relationships' ? referenced(nodes.text(arg('to')), nodes.text(arg('field'))) : undefined;
  if (target) {
    column.references = target;
    log.note({ column: index }, `${column.name}: dbt's relationships test runs on the warehouse; the gate checks the latest published partition of contract "${target.contract}"`);
    return ['references'];
  }
  const what = test.name === 'relationships'
    ? `relationships: ${column.name} references ${nodes.text(arg('to')) ?? '?'}.${nodes.text(arg('field')) ?? '?'} (the gate checks a reference to a contract, named by ref('<contract>') or source('<source>', '<contract>'))`
    : `dbt test ${test.name}${test.args ? ` ${test.args.toString()}` : ''} on ${column.name}`;
  log.notEnforced(test.path, test.node, { column: index }, what);
  return [];
}

/** min_value and max_value: numbers, or ISO dates and timestamps as SQL string literals (`'2026-01-01'`). */
function bounds(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, column: DraftColumn, index: number, test: DbtTest): string[] {
  const set: string[] = [];
  for (const [key, which] of [['min_value', 'min'], ['max_value', 'max']] as const) {
    const node = nodes.child(test.args, key);
    if (node === undefined) continue;
    const exact = nodes.bound(node);
    const value = typeof exact === 'string' ? literal(exact) : exact;
    if (value === undefined) {
      log.notEnforced(`${test.path}.${key}`, node, { column: index }, `${test.name} ${key} ${node?.toString() ?? ''} on ${column.name} (a bound is a number or a quoted date or timestamp)`);
      continue;
    }
    rules.bound(which, value, test.path, test.node);
    if (column[which] !== undefined) set.push(which);
  }
  return set;
}

/** `'2026-01-01'` or `cast('2026-01-01' as date)` as its text; a bare number as itself; anything else (an expression) undefined. */
function literal(text: string | undefined): string | number | undefined {
  if (text === undefined) return undefined;
  const quoted = /^\s*(?:cast\s*\(\s*)?'([^']*)'(?:\s*as\s+[a-z_ ]+\))?\s*$/i.exec(text)?.[1];
  if (quoted !== undefined) return quoted;
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : undefined;
}

/** `ref('customers')` or `source('shop', 'customers')`, when the name is a dataset name. */
function referenced(to: string | undefined, field: string | undefined): { contract: string; column: string } | undefined {
  const match = to === undefined ? null : /^\s*(?:ref\(\s*['"]([^'"]+)['"]\s*\)|source\(\s*['"][^'"]+['"]\s*,\s*['"]([^'"]+)['"]\s*\))\s*$/.exec(to);
  const contract = match?.[1] ?? match?.[2];
  if (contract === undefined || field === undefined || datasetNameProblem(contract) !== undefined) return undefined;
  return { contract, column: field };
}
