import type { Node } from 'yaml';
import { gateMeta } from './dbt-meta.js';
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
 * Source freshness as the SLA, on loaded_at_field: error_after is max_lag_hours, warn_after
 * warn_lag_hours. A model takes the freshness of the source table of its name, the nearest thing
 * dbt has to a model's (or, exported, of the table it is published as); a table takes its
 * source's when it has none of its own. A freshness
 * `filter` is a promise the gate has no words for: a comment.
 */
export function readDbtFreshness(c: ImportContext, entry: DbtEntry): void {
  const { nodes, log, draft } = c;
  const table = entry.kind === 'source table' ? entry : sourceTables(c).find((t) => t.name === entry.name || t.name === publishedAs(c, entry));
  if (!table) return;
  const pick = (key: string) => {
    const own = nodes.child(table.node, key) ?? nodes.child(nodes.child(table.node, 'config'), key);
    return own !== undefined ? { node: own, path: `${table.path}.${key}` } : { node: nodes.child(table.sourceNode, key), path: `${table.path.replace(/\.tables\[\d+\]$/, '')}.${key}` };
  };
  const freshness = pick('freshness');
  const column = nodes.text(pick('loaded_at_field').node);
  const node = freshness.node;
  if (node === undefined || node === null) return;
  const lags = (['error_after', 'warn_after'] as const).map((key) => lag(c, node, `${freshness.path}.${key}`, key, column));
  const [errorAt, warnAt] = lags;
  if (errorAt !== undefined && warnAt !== undefined && warnAt >= errorAt) {
    log.notEnforced(`${freshness.path}.warn_after`, nodes.child(node, 'warn_after'), { key: 'sla' }, `source freshness warn_after (${warnAt} hours, not before error_after)`);
    lags[1] = undefined;
  }
  if (column !== undefined && (lags[0] !== undefined || lags[1] !== undefined)) {
    draft.sla = { ...draft.sla, ...(lags[0] === undefined ? {} : { max_lag_hours: lags[0] }), ...(lags[1] === undefined ? {} : { warn_lag_hours: lags[1] }), freshness_column: column };
    log.note({ key: 'sla' }, `from ${freshness.path} on loaded_at_field ${column}`);
  }
  for (const key of nodes.keys(node).filter((k) => k !== 'error_after' && k !== 'warn_after')) {
    log.notEnforced(`${freshness.path}.${key}`, nodes.child(node, key), { key: 'sla' }, `source freshness ${key} ${nodes.child(node, key)?.toString() ?? ''}`);
  }
}

/** The table `export --to dbt` names the published partitions of its model: `<contract>_v<major>`. */
function publishedAs(c: ImportContext, model: DbtEntry): string | undefined {
  const meta = gateMeta(c, model.node);
  const [name, version] = [c.nodes.text(c.nodes.child(meta, 'contract')), c.nodes.text(c.nodes.child(meta, 'version'))];
  return name === undefined || version === undefined ? undefined : `${name.replace(/-/g, '_')}_v${version.split('.')[0]}`;
}

/** One of error_after and warn_after in hours, when it can be measured on a column of the contract. */
function lag(c: ImportContext, freshness: Node | null, path: string, key: string, column: string | undefined): number | undefined {
  const { nodes, log, draft } = c;
  const after = nodes.child(freshness, key);
  if (after === undefined || after === null) return undefined;
  const count = nodes.number(nodes.child(after, 'count'));
  const unit = HOURS[nodes.text(nodes.child(after, 'period')) ?? ''];
  const known = column !== undefined && draft.schema.columns.some((col) => col.name === column);
  if (count !== undefined && unit !== undefined && known) return Number((count * unit).toFixed(4));
  const why = column === undefined ? 'there is no loaded_at_field' : !known ? `loaded_at_field ${column} is not a column of the contract` : `${key} needs count and period (minute, hour or day)`;
  log.notEnforced(path, after, { key: 'sla' }, `source freshness ${key} ${after.toString()} (${why})`);
  return undefined;
}
