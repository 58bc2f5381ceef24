import { ColumnRules } from './column-rules.js';
import type { DbtEntry } from './dbt-sources.js';
import { dbtTests, warnsOnly, type DbtTest } from './dbt-tests.js';
import type { ImportContext } from './legacy-shape.js';

/**
 * Model constraints and tests: a primary key or dbt_utils.unique_combination_of_columns is the
 * grain (at `severity: warn`, a grain the gate only warns about, unless a constraint states it);
 * dbt_utils.expression_is_true of `<column> is not null` where `<column> in (...)` is that
 * column's required_when. Read after the columns, which they name.
 */
export function readModelTests(c: ImportContext, entry: DbtEntry): void {
  const { nodes, log, draft } = c;
  let constrained = false;
  nodes.items(nodes.child(entry.node, 'constraints')).forEach((constraint, i) => {
    const type = nodes.text(nodes.child(constraint, 'type'));
    const columns = nodes.strings(nodes.child(constraint, 'columns'));
    if (type === 'primary_key' && columns) {
      draft.schema.grain = columns;
      constrained = true;
    } else log.notEnforced(`${entry.path}.constraints[${i}]`, constraint, { key: 'schema' }, `model constraint ${type ?? '?'}`);
  });
  for (const test of dbtTests(nodes, entry.node, entry.path)) {
    const columns = nodes.strings(nodes.child(test.args, 'combination_of_columns'));
    if (test.name === 'dbt_utils.unique_combination_of_columns' && columns) {
      draft.schema.grain = columns;
      if (warnsOnly(nodes, test) && !constrained) draft.schema.severity = { ...draft.schema.severity, grain: 'warn' };
    } else if (!requiredWhen(c, test)) {
      log.notEnforced(test.path, test.node, { key: 'schema' }, `model test ${test.name}`);
    }
  }
}

/** `expression: refund_amount is not null` with `config: { where: "status in ('cancelled')" }`; false for any other test. */
function requiredWhen(c: ImportContext, test: DbtTest): boolean {
  const { nodes, log, draft } = c;
  if (test.name.replace(/^dbt_utils\./, '') !== 'expression_is_true') return false;
  const target = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s+is\s+not\s+null\s*$/i.exec(nodes.text(nodes.child(test.args, 'expression')) ?? '')?.[1];
  const where = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s*\((.*)\)\s*$/i.exec(nodes.text(nodes.child(test.config, 'where')) ?? '');
  const values = where ? sqlValues(where[2]!) : undefined;
  const index = draft.schema.columns.findIndex((column) => column.name === target);
  const column = draft.schema.columns[index];
  if (!column || !where || !values) return false;
  new ColumnRules(log, column, index, test.path).requiredWhen(where[1]!, values);
  if (warnsOnly(nodes, test)) column.severity = { ...column.severity, required_when: 'warn' };
  return true;
}

/** A SQL list of literals: `'a', 'it''s', 7, true`; undefined when an item is anything else. */
function sqlValues(list: string): (string | number | boolean)[] | undefined {
  const items = list.match(/\s*('(?:[^']|'')*'|-?\d+(?:\.\d+)?|true|false)\s*(?:,|$)/gi);
  if (!items || items.join('').length !== list.length) return undefined;
  return items.map((item) => {
    const text = item.replace(/,\s*$/, '').trim();
    if (text.startsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
    if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
    return Number(text);
  });
}

