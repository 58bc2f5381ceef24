import type { Node } from 'yaml';
import type { ColumnRules } from './column-rules.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportLog } from './import-log.js';
import type { SourceNodes } from './source-nodes.js';

/** `status = 'cancelled'`, `status in ('a', 'b')`, `qty == 3`: the conditions required_when can say. */
const CONDITION = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:==?\s*(.+?)|\s+in\s*\((.+)\))\s*$/i;

/**
 * A lesson-style `tests:` list: names (`not_null`) or one-key mappings with an argument
 * (`matches_regex: "^ord_"`, `not_null_when: "status = 'cancelled'"`). What has no native rule is
 * kept as a comment with a warning.
 */
export function readLegacyTests(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, node: Node | null, path: string, index: number, column: DraftColumn): void {
  if (!nodes.isList(node)) {
    log.error(path, node, 'expected a list of tests, e.g. tests: [not_null, { matches_regex: "^ord_" }]');
    return;
  }
  nodes.items(node).forEach((item, i) => {
    const name = nodes.text(item) ?? nodes.keys(item)[0];
    const argument = nodes.text(item) === undefined && name !== undefined ? nodes.child(item, name) : undefined;
    readTest(nodes, log, rules, { name, argument, item, path: `${path}[${i}]`, index, column });
  });
}

interface Test {
  readonly name: string | undefined;
  readonly argument: Node | null | undefined;
  readonly item: Node | null;
  readonly path: string;
  readonly index: number;
  readonly column: DraftColumn;
}

function readTest(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, test: Test): void {
  const { name, argument, item, path, index, column } = test;
  if (name === 'not_null') column.required = true;
  else if (name === 'unique') column.unique = true;
  else if (name === 'not_in_future') rules.notInFuture(path, item);
  else if (name === 'matches_regex' || name === 'regex') {
    const pattern = nodes.text(argument) ?? nodes.text(nodes.child(argument, 'pattern')) ?? nodes.text(nodes.child(argument, 'regex'));
    if (pattern === undefined) log.error(path, item, `${name} needs its pattern: write { ${name}: "^ord_[0-9a-f]{8}$" }`);
    else rules.pattern(pattern, path, item);
  } else if (name === 'accepted_values' || name === 'allowed_values') {
    const values = nodes.scalars(argument) ?? nodes.scalars(nodes.child(argument, 'values'));
    if (values === undefined) log.error(path, item, `${name} needs its values: write { ${name}: [a, b] }`);
    else rules.enumOf(values, path, item);
  } else if (name === 'not_null_when') {
    readNotNullWhen(nodes, log, rules, test);
  } else {
    log.notEnforced(path, item, { column: index }, `${column.name} test ${name ?? '?'}${argument ? ` (${argument.toString()})` : ''}`);
  }
}

/** `not_null_when` as a condition text or as { column, in }: becomes required_when. */
function readNotNullWhen(nodes: SourceNodes, log: ImportLog, rules: ColumnRules, test: Test): void {
  const { argument, item, path, index, column } = test;
  const structured = nodes.text(nodes.child(argument, 'column'));
  const listed = nodes.scalars(nodes.child(argument, 'in'));
  if (structured && listed) {
    rules.requiredWhen(structured, listed);
    return;
  }
  const text = nodes.text(argument);
  const match = text === undefined ? null : CONDITION.exec(text);
  if (!match?.[1]) {
    log.notEnforced(path, item, { column: index }, `${column.name} test not_null_when ${text ?? '?'} (required_when takes "column = value" or "column in (a, b)")`);
    return;
  }
  const values = (match[2] ?? match[3] ?? '').split(',').map(literal);
  rules.requiredWhen(match[1], values);
}

/** `'cancelled'` → cancelled, `3` → 3, `true` → true. */
function literal(text: string): string | number | boolean {
  const trimmed = text.trim();
  const quoted = /^(['"])(.*)\1$/.exec(trimmed);
  if (quoted) return quoted[2] ?? '';
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (/^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  return trimmed;
}
