import type { Node } from 'yaml';
import { parseColumnType } from '../contract/column-type.js';
import { isDbtAdapter, nativeOfDbtType, type DbtAdapter } from '../export/dbt-adapters.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportContext } from './legacy-shape.js';
import { mapTypeName, type MappedType } from './type-names.js';

/** `meta.contract_gate` of a model or column: under `config:` (dbt 1.10) or at the top. */
export function gateMeta(c: ImportContext, node: Node | null | undefined): Node | null | undefined {
  const { nodes } = c;
  return nodes.child(nodes.child(nodes.child(node, 'config'), 'meta'), 'contract_gate') ?? nodes.child(nodes.child(node, 'meta'), 'contract_gate');
}

/** The adapter whose type names the model's `data_type`s are, when `export --to dbt` wrote it. */
export function modelAdapter(c: ImportContext, model: Node | null | undefined): DbtAdapter | undefined {
  const text = c.nodes.text(c.nodes.child(gateMeta(c, model), 'adapter'));
  return text !== undefined && isDbtAdapter(text) ? text : undefined;
}

/** The contract the model's meta names: a major past 1 exports its model as `<name>_v<major>`. */
export function modelContract(c: ImportContext, model: Node | null | undefined): string | undefined {
  return c.nodes.text(c.nodes.child(gateMeta(c, model), 'contract'));
}

/** The version the model's meta names, when it is MAJOR.MINOR.PATCH. */
export function modelVersion(c: ImportContext, model: Node | null | undefined): string | undefined {
  const text = c.nodes.text(c.nodes.child(gateMeta(c, model), 'version'));
  return text !== undefined && /^\d+\.\d+\.\d+$/.test(text) ? text : undefined;
}

/**
 * A column's type: the contract type its meta names, else its `data_type` in the adapter's names
 * the export used, else as any dbt project's type name.
 */
export function columnType(c: ImportContext, column: Node | null | undefined, dataType: string, adapter: DbtAdapter | undefined): MappedType | undefined {
  const named = c.nodes.text(c.nodes.child(gateMeta(c, column), 'type'));
  if (named !== undefined && parseColumnType(named)) return { type: named };
  const native = adapter && nativeOfDbtType(dataType, adapter);
  return native ? { type: native } : mapTypeName(dataType, 'generic');
}

/** What the column's meta keeps that dbt has no word for: a type rule at warn, a default, a reference's pins. */
export function readColumnMeta(c: ImportContext, node: Node | null | undefined, column: DraftColumn): void {
  const { nodes } = c;
  const meta = gateMeta(c, node);
  if (nodes.text(nodes.child(nodes.child(meta, 'severity'), 'type')) === 'warn') column.severity = { ...column.severity, type: 'warn' };
  const fallback = nodes.value(nodes.child(meta, 'default'));
  if (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean') column.default = fallback;
  const reference = nodes.child(meta, 'references');
  const [contract, referenced] = [nodes.text(nodes.child(reference, 'contract')), nodes.text(nodes.child(reference, 'column'))];
  if (contract === undefined || referenced === undefined) return;
  const major = nodes.number(nodes.child(reference, 'major'));
  const partition = nodes.text(nodes.child(reference, 'partition'));
  column.references = { contract, column: referenced, ...(major === undefined ? {} : { major }), ...(partition === undefined ? {} : { partition }) };
}
