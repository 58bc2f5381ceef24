import type { Node } from 'yaml';
import type { ImportContext } from './legacy-shape.js';

/** A model or a source table of a schema.yml. */
export interface DbtEntry {
  readonly kind: 'model' | 'source table';
  readonly name: string;
  /** The source a table belongs to. */
  readonly source?: string;
  /** The source itself, whose freshness and loaded_at_field its tables inherit. */
  readonly sourceNode?: Node | null;
  readonly node: Node | null;
  readonly path: string;
}

const HOURS: Readonly<Record<string, number>> = { minute: 1 / 60, hour: 1, day: 24 };

export function sourceTables(c: ImportContext): DbtEntry[] {
  const { nodes } = c;
  return nodes.items(nodes.child(nodes.root, 'sources')).flatMap((source, s) => nodes.items(nodes.child(source, 'tables')).map((node, t): DbtEntry => ({
    kind: 'source table', name: nodes.text(nodes.child(node, 'name')) ?? '?', source: nodes.text(nodes.child(source, 'name')) ?? '?', sourceNode: source, node, path: `sources[${s}].tables[${t}]`,
  })));
}

/**
 * Source freshness as the SLA: error_after is max_lag_hours on loaded_at_field. A model takes
 * the freshness of the source table of its name, the nearest thing dbt has to a model's.
 * warn_after and a freshness filter are promises the gate has no words for: comments.
 */
export function readDbtFreshness(c: ImportContext, entry: DbtEntry): void {
  const { nodes, log, draft } = c;
  const table = entry.kind === 'source table' ? entry : sourceTables(c).find((t) => t.name === entry.name);
  if (!table) return;
  const pick = (key: string) => {
    const own = nodes.child(table.node, key) ?? nodes.child(nodes.child(table.node, 'config'), key);
    return own !== undefined ? { node: own, path: `${table.path}.${key}` } : { node: nodes.child(table.sourceNode, key), path: `${table.path.replace(/\.tables\[\d+\]$/, '')}.${key}` };
  };
  const freshness = pick('freshness');
  const loadedAt = pick('loaded_at_field');
  if (freshness.node === undefined || freshness.node === null) return;
  const errorAfter = nodes.child(freshness.node, 'error_after');
  const count = nodes.number(nodes.child(errorAfter, 'count'));
  const unit = HOURS[nodes.text(nodes.child(errorAfter, 'period')) ?? ''];
  const column = nodes.text(loadedAt.node);
  if (count !== undefined && unit !== undefined && column !== undefined && draft.schema.columns.some((col) => col.name === column)) {
    draft.sla = { ...draft.sla, max_lag_hours: Number((count * unit).toFixed(4)), freshness_column: column };
    log.note({ key: 'sla' }, `from ${freshness.path}.error_after (${count} ${nodes.text(nodes.child(errorAfter, 'period'))}) on loaded_at_field ${column}`);
  } else if (errorAfter) {
    const why = column === undefined ? 'there is no loaded_at_field' : !draft.schema.columns.some((col) => col.name === column) ? `loaded_at_field ${column} is not a column of the contract` : 'error_after needs count and period (minute, hour or day)';
    log.notEnforced(`${freshness.path}.error_after`, errorAfter, { key: 'sla' }, `source freshness error_after ${errorAfter.toString()} (${why})`);
  }
  for (const key of nodes.keys(freshness.node).filter((k) => k !== 'error_after')) {
    log.notEnforced(`${freshness.path}.${key}`, nodes.child(freshness.node, key), { key: 'sla' }, `source freshness ${key} ${nodes.child(freshness.node, key)?.toString() ?? ''} (the gate has one limit, which fails the drop)`);
  }
}
