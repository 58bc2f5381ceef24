import type { Node } from 'yaml';
import { ColumnRules } from './column-rules.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportContext } from './legacy-shape.js';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const DESCRIPTIVE = ['type', 'title', 'description', 'default', 'examples', '$comment', 'readOnly', 'writeOnly', 'deprecated', 'enum', 'const', 'format', 'anyOf', 'oneOf', '$id'];

/** A property's one non-null type and whether null is allowed: `["string", "null"]`, or anyOf with a null branch. */
export interface PropertyType {
  readonly type?: string;
  readonly nullable: boolean;
  /** The schema holding the type's keywords (the non-null branch of an anyOf). */
  readonly schema: Node | null | undefined;
}

export function propertyType(c: ImportContext, node: Node | null | undefined, resolve: (n: Node | null | undefined) => Node | null | undefined): PropertyType {
  const { nodes } = c;
  const branches = nodes.items(nodes.child(node, 'anyOf') ?? nodes.child(node, 'oneOf')).map(resolve);
  if (branches.length > 0) {
    const real = branches.filter((b) => nodes.text(nodes.child(b, 'type')) !== 'null');
    const nullable = real.length < branches.length;
    return real.length === 1 ? { ...propertyType(c, real[0], resolve), nullable } : { nullable, schema: node };
  }
  const typeNode = nodes.child(node, 'type');
  const types = nodes.strings(typeNode) ?? [];
  const real = types.filter((t) => t !== 'null');
  const enumNull = nodes.items(nodes.child(node, 'enum')).some((item) => nodes.value(item) === null);
  return { ...(real.length === 1 ? { type: real[0] } : {}), nullable: real.length < types.length || enumNull, schema: node };
}

/** The native type of a JSON Schema type and format; undefined for object, array and the unknown. */
export function nativeOf(c: ImportContext, type: string, schema: Node | null | undefined): string | undefined {
  const format = c.nodes.text(c.nodes.child(schema, 'format'));
  if (type === 'string') return format === 'date' ? 'date' : format === 'date-time' ? 'timestamp' : c.nodes.text(c.nodes.child(schema, 'contentEncoding')) === 'base64' ? 'binary' : 'string';
  if (type === 'integer') return format === 'int32' ? 'int32' : 'int64';
  if (type === 'number') return format === 'float' ? 'float32' : 'float64';
  return type === 'boolean' ? 'boolean' : undefined;
}

/** The value keywords of one property on its column; what has no native rule is a comment. */
export function readKeywords(c: ImportContext, schema: Node | null | undefined, path: string, column: DraftColumn, index: number): void {
  const { nodes, log } = c;
  const rules = new ColumnRules(log, column, index, path);
  const at = (key: string) => nodes.child(schema, key);
  const values = nodes.scalars(nodes.child(schema, 'enum') === undefined ? undefined : filterNull(c, at('enum')));
  if (values) rules.enumOf(values, `${path}.enum`, at('enum'));
  const constant = nodes.value(at('const'));
  if (typeof constant === 'string' || typeof constant === 'number') rules.enumOf([constant], `${path}.const`, at('const'));
  const format = nodes.text(at('format'));
  if (format === 'uuid') rules.pattern(UUID, `${path}.format`, at('format'));
  else if (format !== undefined && !['date', 'date-time', 'int32', 'int64', 'float', 'double'].includes(format)) log.notEnforced(`${path}.format`, at('format'), { column: index }, `${column.name} format ${format}`);
  for (const key of nodes.keys(schema).filter((k) => !DESCRIPTIVE.includes(k))) readKeyword(c, rules, key, at(key), `${path}.${key}`, column, index);
}

function readKeyword(c: ImportContext, rules: ColumnRules, key: string, node: Node | null | undefined, path: string, column: DraftColumn, index: number): void {
  const { nodes, log } = c;
  const number = nodes.number(node);
  const exact = nodes.bound(node);
  const text = nodes.text(node);
  if ((key === 'minimum' || key === 'maximum') && number !== undefined) rules.bound(key === 'minimum' ? 'min' : 'max', exact!, path, node);
  else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && number !== undefined && /^int/.test(column.type)) {
    // Whole numbers step by one: an exclusive bound is the inclusive one next to it.
    const lower = key === 'exclusiveMinimum';
    const inclusive = typeof exact === 'bigint' ? exact + (lower ? 1n : -1n) : number + (lower ? 1 : -1);
    rules.bound(lower ? 'min' : 'max', inclusive, path, node);
  } else if (key === 'pattern' && text !== undefined) rules.pattern(text, path, node);
  else if ((key === 'minLength' || key === 'maxLength') && number !== undefined) rules.length(key === 'minLength' ? 'min_length' : 'max_length', number, path, node);
  else log.notEnforced(path, node, { column: index }, `${column.name} ${key}: ${node?.toString() ?? ''}`);
}

function filterNull(c: ImportContext, node: Node | null | undefined): Node | null | undefined {
  const seq = c.nodes.reader.resolve(node ?? null);
  if (!seq || !('items' in seq)) return node;
  const copy = seq.clone() as typeof seq;
  (copy as unknown as { items: unknown[] }).items = (copy as unknown as { items: Node[] }).items.filter((item) => c.nodes.value(item) !== null);
  return copy;
}
