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
  readonly node: Node | null;
  readonly path: string;
}

/** The tests of a model or column, under `data_tests` (dbt 1.8+) or `tests`. */
export function dbtTests(nodes: SourceNodes, owner: Node | null | undefined, path: string): DbtTest[] {
  return ['data_tests', 'tests'].flatMap((key) => nodes.items(nodes.child(owner, key)).map((node, i) => {
    const name = nodes.text(node) ?? nodes.keys(node)[0] ?? '?';
    const body = nodes.text(node) === undefined ? nodes.child(node, name) : undefined;
    const args = nodes.child(body, 'arguments') ?? body;
    return { name, args, node, path: `${path}.${key}[${i}]` };
  }));
}

/**
 * A column test as a native rule: the rule it set (its severity key), or undefined when it set
 * none. `relationships` to a `ref()` or `source()` becomes `references` to the contract of that
 * name; anything else the gate cannot check becomes a comment and a warning.
 */
export function applyColumnTest(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, column: DraftColumn, index: number, test: DbtTest, hard: Set<string>): void {
  const rule = applyTest(nodes, log, rules, column, index, test);
  const severity = nodes.text(nodes.child(nodes.child(nodes.child(test.node, test.name), 'config'), 'severity'));
  if (rule === undefined) return;
  // `hard`: the rules a constraint or an error test states. All of them hold, so an error wins.
  if (severity?.toLowerCase() === 'warn' && !hard.has(rule)) {
    column.severity = { ...column.severity, [rule]: 'warn' };
    return;
  }
  hard.add(rule);
  if (column.severity?.[rule]) {
    const { [rule]: _dropped, ...rest } = column.severity;
    column.severity = Object.keys(rest).length > 0 ? rest : undefined;
  }
}

function applyTest(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, column: DraftColumn, index: number, test: DbtTest): string | undefined {
  const arg = (key: string) => nodes.child(test.args, key);
  const base = test.name.replace(/^dbt_utils\.|^dbt_expectations\./, '');
  if (test.name === 'not_null') {
    column.required = true;
    return 'required';
  }
  if (test.name === 'unique') {
    column.unique = true;
    return 'unique';
  }
  if (test.name === 'accepted_values') {
    const values = nodes.scalars(arg('values'));
    if (values) rules.enumOf(values, test.path, test.node);
    else log.error(test.path, test.node, 'accepted_values needs its values: { accepted_values: { values: [a, b] } }');
    return column.enum ? 'enum' : undefined;
  }
  if (base === 'accepted_range' && nodes.value(arg('inclusive')) !== false) {
    const min = nodes.number(arg('min_value')) ?? nodes.text(arg('min_value'));
    const max = nodes.number(arg('max_value')) ?? nodes.text(arg('max_value'));
    if (min !== undefined) rules.bound('min', min, test.path, test.node);
    if (max !== undefined) rules.bound('max', max, test.path, test.node);
    return column.min !== undefined ? 'min' : column.max !== undefined ? 'max' : undefined;
  }
  if (base === 'expect_column_values_to_match_regex' && nodes.text(arg('regex'))) {
    rules.pattern(nodes.text(arg('regex'))!, test.path, test.node);
    return column.pattern === undefined ? undefined : 'pattern';
  }
  const target = test.name === 'relationships' ? referenced(nodes.text(arg('to')), nodes.text(arg('field'))) : undefined;
  if (target) {
    column.references = target;
    log.note({ column: index }, `${column.name}: dbt's relationships test runs on the warehouse; the gate checks the latest published partition of contract "${target.contract}"`);
    return 'references';
  }
  const what = test.name === 'relationships'
    ? `relationships: ${column.name} references ${nodes.text(arg('to')) ?? '?'}.${nodes.text(arg('field')) ?? '?'} (the gate checks a reference to a contract, named by ref('<contract>') or source('<source>', '<contract>'))`
    : `dbt test ${test.name}${test.args ? ` ${test.args.toString()}` : ''} on ${column.name}`;
  log.notEnforced(test.path, test.node, { column: index }, what);
  return undefined;
}

/** `ref('customers')` or `source('shop', 'customers')`, when the name is a dataset name. */
function referenced(to: string | undefined, field: string | undefined): { contract: string; column: string } | undefined {
  const match = to === undefined ? null : /^\s*(?:ref\(\s*['"]([^'"]+)['"]\s*\)|source\(\s*['"][^'"]+['"]\s*,\s*['"]([^'"]+)['"]\s*\))\s*$/.exec(to);
  const contract = match?.[1] ?? match?.[2];
  if (contract === undefined || field === undefined || datasetNameProblem(contract) !== undefined) return undefined;
  return { contract, column: field };
}
