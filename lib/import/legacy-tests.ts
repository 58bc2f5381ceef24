import type { Node } from 'yaml';
import type { ColumnRules } from './column-rules.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportLog } from './import-log.js';
import type { SourceNodes } from './source-nodes.js';

/** `status = 'cancelled'`, `status IN ('CONFIRMED', 'SHIPPED')`, `qty == 3`: the conditions required_when can say. */
const CONDITION = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:==?\s*(.+?)|\s+in\s*\((.+)\))\s*$/i;

/** The keys a field may give its allowed values under, which a bare `accepted_values` test refers to. */
const VALUE_KEYS = ['allowed_values', 'allowed', 'enum', 'accepted_values'];

/** What a column's tests need: the readers, the column being built and its source mapping. */
export interface TestContext {
  readonly nodes: SourceNodes;
  readonly log: ImportLog;
  readonly rules: ColumnRules;
  /** The field's mapping in the source, for a test that reads a sibling key. */
  readonly field: Node;
  readonly index: number;
  readonly column: DraftColumn;
}

interface Test {
  readonly name: string | undefined;
  readonly argument: Node | null | undefined;
  readonly item: Node | null;
  readonly path: string;
}

/**
 * A lesson-style `tests:` list: names (`not_null`, `accepted_values`) or one-key mappings with an
 * argument (`matches_regex: "^ord_"`, `not_null_when: "status IN ('CONFIRMED')"`,
 * `greater_than_or_equal: 0`). What has no native rule is kept as a comment with a warning.
 */
export function readLegacyTests(c: TestContext, node: Node | null, path: string): void {
  if (!c.nodes.isList(node)) {
    c.log.error(path, node, 'expected a list of tests, e.g. tests: [not_null, { matches_regex: "^ord_" }]');
    return;
  }
  c.nodes.items(node).forEach((item, i) => {
    const name = c.nodes.text(item) ?? c.nodes.keys(item)[0];
    const argument = c.nodes.text(item) === undefined && name !== undefined ? c.nodes.child(item, name) : undefined;
    readTest(c, { name, argument, item, path: `${path}[${i}]` });
  });
}

function readTest(c: TestContext, test: Test): void {
  const { name, argument, item, path } = test;
  if (name === 'not_null') c.column.required = true;
  else if (name === 'unique') c.column.unique = true;
  else if (name === 'not_in_future') c.rules.notInFuture(path, item);
  else if (name === 'matches_regex' || name === 'regex') readPattern(c, test);
  else if (name === 'accepted_values' || name === 'allowed_values') readValues(c, test);
  else if (name === 'greater_than_or_equal' || name === 'less_than_or_equal') readBound(c, test, name === 'greater_than_or_equal' ? 'min' : 'max');
  else if (name === 'not_null_when') readNotNullWhen(c, test);
  else c.log.notEnforced(path, item, { column: c.index }, `${c.column.name} test ${name ?? '?'}${argument ? ` (${argument.toString()})` : ''}`);
}

function readPattern(c: TestContext, { name, argument, item, path }: Test): void {
  const pattern = c.nodes.text(argument) ?? c.nodes.text(c.nodes.child(argument, 'pattern')) ?? c.nodes.text(c.nodes.child(argument, 'regex'));
  if (pattern === undefined) c.log.error(path, item, `${name} needs its pattern: write { ${name}: "^ord_[0-9a-f]{8}$" }`);
  else c.rules.pattern(pattern, path, item);
}

/**
 * `accepted_values` with a list is that list; written bare, as the lesson does, it is the field's
 * own `allowed_values` (its dbt generator reads it so), which that key has already set.
 */
function readValues(c: TestContext, { name, argument, item, path }: Test): void {
  const values = c.nodes.scalars(argument) ?? c.nodes.scalars(c.nodes.child(argument, 'values'));
  if (values !== undefined) {
    c.rules.enumOf(values, path, item);
    return;
  }
  const own = VALUE_KEYS.find((key) => c.nodes.isList(c.nodes.child(c.field, key)));
  if (argument === undefined && own !== undefined) return;
  c.log.error(path, item, `${name} needs its values: list them on the field (allowed_values: [a, b]) or in the test ({ ${name}: [a, b] })`);
}

function readBound(c: TestContext, { name, argument, item, path }: Test, which: 'min' | 'max'): void {
  const value = c.nodes.bound(argument);
  if (value === undefined) c.log.error(path, item, `${name} needs its bound: write { ${name}: 0 }`);
  else c.rules.bound(which, value, path, item);
}

/** `not_null_when` as a condition text or as { column, in }: becomes required_when. */
function readNotNullWhen(c: TestContext, { argument, item, path }: Test): void {
  const structured = c.nodes.text(c.nodes.child(argument, 'column'));
  const listed = c.nodes.scalars(c.nodes.child(argument, 'in'));
  if (structured && listed) {
    c.rules.requiredWhen(structured, listed);
    return;
  }
  const text = c.nodes.text(argument);
  const match = text === undefined ? null : CONDITION.exec(text);
  if (!match?.[1]) {
    c.log.notEnforced(path, item, { column: c.index }, `${c.column.name} test not_null_when ${text ?? '?'} (required_when takes "column = value" or "column IN (a, b)")`);
    return;
  }
  const values = (match[2] ?? match[3] ?? '').split(',').map(literal);
  c.rules.requiredWhen(match[1], values);
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
