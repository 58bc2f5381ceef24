import type { Node } from 'yaml';
import type { RowTolerance } from '../contract/model.js';
import type { YamlReader } from '../contract/yaml-reader.js';
import { notEnforced } from './odcs-warnings.js';
import type { LibraryRule, RuleTolerance } from './read-quality.js';

/**
 * A quality rule's threshold of failing rows (`mustBeLessThan: 2`, `unit: percent`) as a row
 * tolerance. Returns null when the rule cannot be enforced (reported), undefined when it is
 * enforced without a tolerance: a warning rule reports every failing row and stops none anyway.
 */
export function ruleTolerance(reader: YamlReader, rule: LibraryRule, label: string, batchLevel: boolean): RuleTolerance | undefined | null {
  const path = `${rule.path}.${rule.operator}`;
  const node = rule.entries.get(rule.operator)?.key ?? null;
  const tolerance = batchLevel ? undefined : toleranceOf(rule);
  if (!tolerance) {
    const why = batchLevel
      ? 'repeats are checked over the whole partition, not row by row, so no threshold applies; only mustBe: 0 is enforced'
      : 'a threshold of failing rows is enforced, as the contract\'s on_violation, from mustBeLessThan or mustBeLessOrEqualTo in rows or percent; this one is not';
    notEnforced(reader, path, node, label, why);
    return null;
  }
  if (rule.severity === 'warn') {
    notEnforced(reader, path, node, `the threshold of ${label}`, 'a warning rule reports every failing row, and stops none');
    return undefined;
  }
  return { tolerance, node, path };
}

function toleranceOf(rule: LibraryRule): RowTolerance | undefined {
  const { operator, value, unit } = rule;
  if ((operator !== 'mustBeLessThan' && operator !== 'mustBeLessOrEqualTo') || typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  // The gate withholds at most the tolerance; "less than 2 percent" is read as at most 2%.
  if (unit === 'percent') return value > 0 && value < 100 ? { rowTolerance: Number((value / 100).toPrecision(12)) } : undefined;
  if (unit !== undefined && unit !== 'rows') return undefined;
  const rows = operator === 'mustBeLessThan' ? Math.ceil(value) - 1 : Math.floor(value);
  return rows > 0 ? { maxInvalidRows: rows } : undefined;
}

/**
 * The contract's one on_violation. `contractGate.onViolation` says it when given. Otherwise the
 * rules' thresholds become one budget for the rows breaking any row-level rule: the smallest of
 * the first one's kind (a share and a count cannot be compared), which holds each rule to its
 * threshold or less. Every threshold gets a warning saying what it became, since the meaning moves
 * from "this rule fails past it" to "the batch is published without its invalid rows up to it".
 */
export function chooseTolerance(reader: YamlReader, candidates: readonly RuleTolerance[], declared: RowTolerance | undefined): RowTolerance | undefined {
  if (declared) {
    for (const c of candidates) notEnforced(reader, c.path, c.node, `the threshold ${describe(c.tolerance)}`, 'contractGate.onViolation says the contract\'s tolerance; the rule itself is enforced');
    return declared;
  }
  const [first] = candidates;
  if (!first) return undefined;
  const kin = candidates.filter((c) => kind(c.tolerance) === kind(first.tolerance));
  const chosen = kin.reduce((a, b) => (amount(b.tolerance) < amount(a.tolerance) ? b : a));
  for (const c of candidates) {
    if (c === chosen) {
      reader.report('not_enforced', c.path, c.node, `read as the contract's on_violation, ${describe(c.tolerance)}: the rows breaking any row-level rule (also those allowing no failing row) are withheld, up to that many, and the rest is published; past it the batch is quarantined`, 'warning');
    } else {
      notEnforced(reader, c.path, c.node, `the threshold ${describe(c.tolerance)}`, `a contract has one on_violation for all its row-level rules, and ${describe(chosen.tolerance)} (at ${chosen.path}) applies; the rule itself is enforced`);
    }
  }
  return chosen.tolerance;
}

/** `contractGate.onViolation: { rowTolerance: 0.02 }` or `{ maxInvalidRows: 100 }`, exactly one. */
export function readCustomTolerance(reader: YamlReader, node: Node | null, path: string): RowTolerance | undefined {
  const fields = reader.map(node, path, ['rowTolerance', 'maxInvalidRows']);
  if (!fields) return undefined;
  const [share, count] = [fields.get('rowTolerance'), fields.get('maxInvalidRows')];
  if (share && count) {
    reader.report('conflicting_keys', `${path}.maxInvalidRows`, count.key, 'write rowTolerance (a fraction of the rows) or maxInvalidRows (a number of rows), not both');
    return undefined;
  }
  if (count) {
    const maxInvalidRows = reader.number(count.value, `${path}.maxInvalidRows`, { integer: true, min: 0 });
    return maxInvalidRows === undefined ? undefined : { maxInvalidRows };
  }
  if (!share) {
    reader.report('missing_key', `${path}.rowTolerance`, node, 'contractGate.onViolation needs rowTolerance (a fraction of the rows, e.g. 0.02) or maxInvalidRows (a number of rows, e.g. 100)');
    return undefined;
  }
  const rowTolerance = reader.number(share.value, `${path}.rowTolerance`, { min: 0 });
  if (rowTolerance === undefined || rowTolerance < 1) return rowTolerance === undefined ? undefined : { rowTolerance };
  reader.report('invalid_value', `${path}.rowTolerance`, share.value, `expected a fraction of the rows below 1, found ${rowTolerance}; 0.02 is 2%`);
  return undefined;
}

function kind(tolerance: RowTolerance): 'share' | 'rows' {
  return 'rowTolerance' in tolerance ? 'share' : 'rows';
}

function amount(tolerance: RowTolerance): number {
  return 'rowTolerance' in tolerance ? tolerance.rowTolerance : tolerance.maxInvalidRows;
}

function describe(tolerance: RowTolerance): string {
  return 'rowTolerance' in tolerance ? `{ rowTolerance: ${tolerance.rowTolerance} }` : `{ maxInvalidRows: ${tolerance.maxInvalidRows} }`;
}
