import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { odcsEntries } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import { libraryRules, zeroTolerance, type LibraryRule, type ObjectQuality } from './read-quality.js';

/** Schema-object metrics: rowCount → min_rows/max_rows, duplicateValues over properties → grain. */
export function readObjectQuality(reader: YamlReader, entries: Entries, path: string): ObjectQuality {
  let quality: ObjectQuality = {};
  for (const rule of libraryRules(reader, entries, path)) {
    if (rule.metric === 'rowCount') {
      const rows = rowBounds(reader, rule);
      // Several rowCount rules all hold: keep the tightest band.
      if (rows) quality = { ...quality, minRows: max(quality.minRows, rows.minRows), maxRows: min(quality.maxRows, rows.maxRows) };
    } else if (rule.metric === 'duplicateValues' && rule.entries.has('arguments') && zeroTolerance(rule)) {
      const grain = readGrainRule(reader, rule);
      if (grain) quality = { ...quality, grain };
    } else {
      const why = rule.metric === 'duplicateValues' ? 'only mustBe: 0 over arguments.properties is enforced, as the grain' : undefined;
      notEnforced(reader, rule.path, rule.node, `quality metric "${rule.metric}" on a schema object`, why);
    }
  }
  if (quality.minRows !== undefined && quality.maxRows !== undefined && quality.minRows > quality.maxRows) {
    reader.report('min_greater_than_max', `${path}.quality`, entries.get('quality')?.key, `the rowCount rules leave no row count: at least ${quality.minRows} and at most ${quality.maxRows}`);
  }
  return quality;
}

/** Row counts are whole numbers, so strict bounds become inclusive ones exactly. */
function rowBounds(reader: YamlReader, rule: LibraryRule): Pick<ObjectQuality, 'minRows' | 'maxRows'> | undefined {
  const { operator, value } = rule;
  const where = `${rule.path}.${operator}`;
  const node = rule.entries.get(operator)?.value;
  if (rule.unit === 'percent' || operator === 'mustNotBe' || operator === 'mustNotBeBetween') {
    notEnforced(reader, where, node, `rowCount ${operator}${rule.unit === 'percent' ? ' in percent' : ''}`);
    return undefined;
  }
  const numbers = (Array.isArray(value) ? value : [value]) as unknown[];
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n)) || numbers.length !== (operator === 'mustBeBetween' ? 2 : 1)) {
    reader.report('wrong_type', where, node, operator === 'mustBeBetween' ? 'expected two numbers [smallest, largest]' : 'expected a number');
    return undefined;
  }
  const [a, b] = numbers as [number, number];
  const bounds = {
    mustBe: { minRows: a, maxRows: a },
    mustBeGreaterThan: { minRows: Math.floor(a) + 1 },
    mustBeGreaterOrEqualTo: { minRows: Math.ceil(a) },
    mustBeLessThan: { maxRows: Math.ceil(a) - 1 },
    mustBeLessOrEqualTo: { maxRows: Math.floor(a) },
    mustBeBetween: { minRows: Math.ceil(a), maxRows: Math.floor(b) },
  }[operator];
  const minRows = bounds.minRows === undefined ? undefined : Math.max(0, bounds.minRows);
  if (bounds.maxRows !== undefined && (bounds.maxRows < 0 || (minRows !== undefined && minRows > bounds.maxRows))) {
    reader.report('min_greater_than_max', where, node, 'no row count satisfies this rule');
    return undefined;
  }
  return { minRows, maxRows: bounds.maxRows };
}

function readGrainRule(reader: YamlReader, rule: LibraryRule): ObjectQuality['grain'] {
  const path = `${rule.path}.arguments`;
  const args = odcsEntries(reader, rule.entries.get('arguments')?.value, path);
  const listed = args?.get('properties');
  if (!listed) {
    notEnforced(reader, path, rule.entries.get('arguments')?.key, 'duplicateValues without arguments.properties');
    return undefined;
  }
  const columns = reader.stringList(listed.value, `${path}.properties`);
  if (columns?.length === 0) reader.report('invalid_value', `${path}.properties`, listed.value, 'expected at least one property');
  return columns?.length ? { columns, node: listed.value, path: `${path}.properties` } : undefined;
}

/** The larger of two optional numbers; undefined only when both are. */
export function max(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** The smaller of two optional numbers; undefined only when both are. */
export function min(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
