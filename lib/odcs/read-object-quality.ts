import type { Severity } from '../contract/model.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { odcsEntries } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import { libraryRules, zeroTolerance, type LibraryRule, type ObjectQuality } from './read-quality.js';

type Rows = Pick<ObjectQuality, 'minRows' | 'maxRows'>;

/**
 * Schema-object metrics: rowCount → min_rows/max_rows, duplicateValues over properties → grain.
 * A rule's `severity` is its rule's: a warning rowCount bound is sla.severity min_rows or max_rows
 * at warn, a warning duplicateValues is schema.severity.grain at warn.
 */
export function readObjectQuality(reader: YamlReader, entries: Entries, path: string): ObjectQuality {
  const bands: Record<Severity, Rows> = { error: {}, warn: {} };
  let quality: ObjectQuality = {};
  for (const rule of libraryRules(reader, entries, path)) {
    if (rule.metric === 'rowCount') {
      const rows = rowBounds(reader, rule);
      // Several rowCount rules of one severity all hold: keep the tightest band.
      const band = bands[rule.severity];
      if (rows) bands[rule.severity] = { minRows: max(band.minRows, rows.minRows), maxRows: min(band.maxRows, rows.maxRows) };
    } else if (rule.metric === 'duplicateValues' && rule.entries.has('arguments') && zeroTolerance(rule)) {
      const grain = readGrainRule(reader, rule);
      if (grain) quality = { ...quality, grain: { ...grain, severity: rule.severity } };
    } else {
      const why = rule.metric === 'duplicateValues' ? 'only mustBe: 0 over arguments.properties is enforced, as the grain' : undefined;
      notEnforced(reader, rule.path, rule.node, `quality metric "${rule.metric}" on a schema object`, why);
    }
  }
  quality = { ...quality, ...volume(reader, entries, path, bands) };
  if (quality.minRows !== undefined && quality.maxRows !== undefined && quality.minRows > quality.maxRows) {
    reader.report('min_greater_than_max', `${path}.quality`, entries.get('quality')?.key, `the rowCount rules leave no row count: at least ${quality.minRows} and at most ${quality.maxRows}`);
  }
  return quality;
}

/** One bound per side, as a contract has: the error one, else the warning one. */
function volume(reader: YamlReader, entries: Entries, path: string, bands: Record<Severity, Rows>): Pick<ObjectQuality, 'minRows' | 'maxRows' | 'severity'> {
  const severity: Partial<Record<'min_rows' | 'max_rows', Severity>> = {};
  const side = (key: 'minRows' | 'maxRows', rule: 'min_rows' | 'max_rows'): number | undefined => {
    const [error, warn] = [bands.error[key], bands.warn[key]];
    if (error !== undefined && warn !== undefined) {
      notEnforced(reader, `${path}.quality`, entries.get('quality')?.key, `the warning rowCount bound for ${rule}`, `an error rule bounds ${rule} too, and a contract checks one ${rule}: the error one`);
    }
    if (error === undefined && warn !== undefined) severity[rule] = 'warn';
    return error ?? warn;
  };
  const minRows = side('minRows', 'min_rows');
  const maxRows = side('maxRows', 'max_rows');
  return { minRows, maxRows, ...(Object.keys(severity).length > 0 ? { severity } : {}) };
}

/** Row counts are whole numbers, so strict bounds become inclusive ones exactly. */
function rowBounds(reader: YamlReader, rule: LibraryRule): Rows | undefined {
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
