import type { Node } from 'yaml';
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
 * A column test as a native rule. `relationships` and anything else the gate cannot check
 * becomes a comment and a warning: dbt runs it on the warehouse, the gate cannot on a file.
 */
export function applyColumnTest(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, column: DraftColumn, index: number, test: DbtTest): void {
  const arg = (key: string) => nodes.child(test.args, key);
  const base = test.name.replace(/^dbt_utils\.|^dbt_expectations\./, '');
  if (test.name === 'not_null') column.required = true;
  else if (test.name === 'unique') column.unique = true;
  else if (test.name === 'accepted_values') {
    const values = nodes.scalars(arg('values'));
    if (values) rules.enumOf(values, test.path, test.node);
    else log.error(test.path, test.node, 'accepted_values needs its values: { accepted_values: { values: [a, b] } }');
  } else if (base === 'accepted_range' && nodes.value(arg('inclusive')) !== false) {
    const min = nodes.number(arg('min_value')) ?? nodes.text(arg('min_value'));
    const max = nodes.number(arg('max_value')) ?? nodes.text(arg('max_value'));
    if (min !== undefined) rules.bound('min', min, test.path, test.node);
    if (max !== undefined) rules.bound('max', max, test.path, test.node);
  } else if (base === 'expect_column_values_to_match_regex' && nodes.text(arg('regex'))) {
    rules.pattern(nodes.text(arg('regex'))!, test.path, test.node);
  } else {
    const what = test.name === 'relationships'
      ? `relationships: ${column.name} references ${nodes.text(arg('to')) ?? '?'}.${nodes.text(arg('field')) ?? '?'} (a foreign key, checkable only against the other table)`
      : `dbt test ${test.name}${test.args ? ` ${test.args.toString()}` : ''} on ${column.name}`;
    log.notEnforced(test.path, test.node, { column: index }, what);
  }
  const severity = nodes.text(nodes.child(nodes.child(nodes.child(test.node, test.name), 'config'), 'severity'));
  if (severity?.toLowerCase() === 'warn') log.note({ column: index }, `${column.name}: dbt runs ${test.name} with severity warn; the gate fails a drop that breaks it`);
}
