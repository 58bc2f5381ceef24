import type { Node } from 'yaml';
import type { DraftColumn } from './import-draft.js';
import type { ImportContext } from './legacy-shape.js';
import { nativeOf, propertyType, readKeywords } from './json-schema-property.js';
import { declaredSeverity, exportedType, readConditions, readDatasetTerms, readExportedProperty, TERMS } from './json-schema-terms.js';

const ROOT_KEYS = ['$schema', '$id', 'title', 'description', 'type', 'properties', 'required', 'additionalProperties', '$defs', 'definitions', '$comment', 'examples', 'unevaluatedProperties', 'allOf', TERMS];

/**
 * A JSON Schema (draft 7 or 2020-12) of one row: an object whose properties are the columns.
 * A property is required when `required` lists it and its type does not allow null. Local `$ref`s
 * (`#/$defs/...`, `#/definitions/...`) are followed; nested objects and arrays have no column
 * type and are left out, with a warning. A schema `export --to jsonschema` wrote carries the
 * contract's own terms under `x-contract-gate`, which are read back (json-schema-terms.ts).
 */
export function fromJsonSchema(c: ImportContext): void {
  const { nodes, log, draft } = c;
  const root = resolve(c, nodes.root);
  if (nodes.text(nodes.child(root, 'type')) !== 'object' && nodes.child(root, 'properties') === undefined) {
    log.error('type', root, 'expected an object schema for one row (type: object with properties)');
    return;
  }
  const title = nodes.text(nodes.child(root, 'title'));
  if (title) draft.name = title;
  const description = nodes.text(nodes.child(root, 'description'));
  if (description) draft.description = description;
  const required = new Set(nodes.strings(nodes.child(root, 'required')) ?? []);
  const properties = nodes.child(root, 'properties');
  if (nodes.keys(properties).length === 0) log.error('properties', root ?? null, 'the schema has no properties; a contract needs at least one column');
  const omitted = nodes.keys(properties).filter((name) => !readProperty(c, name, resolve(c, nodes.child(properties, name)), required.has(name)));
  if (nodes.value(nodes.child(root, 'additionalProperties')) === false) {
    draft.schema.extra_columns = omitted.length === 0 ? 'reject' : 'allow';
    if (omitted.length > 0) log.note({ key: 'schema' }, `additionalProperties: false is not carried over: the columns left out (${omitted.join(', ')}) would make every file fail`);
  }
  readConditions(c, root);
  readDatasetTerms(c, root);
  for (const column of draft.schema.columns) declaredSeverity(column, draft.schema.grain ?? []);
  for (const key of nodes.keys(root).filter((k) => !ROOT_KEYS.includes(k))) {
    log.notEnforced(key, nodes.keyNode(root, key), { key: 'schema' }, `schema keyword ${key}`);
  }
}

/** Adds the property as a column; false when it has no column type and is left out. */
function readProperty(c: ImportContext, name: string, node: Node | null | undefined, listed: boolean): boolean {
  const { nodes, log, draft } = c;
  if (exportedType(c, node) !== undefined) {
    draft.schema.columns.push(readExportedProperty(c, name, node, listed));
    return true;
  }
  const path = `properties.${name}`;
  const { type, nullable, schema } = propertyType(c, node, (n) => resolve(c, n));
  const native = type === undefined ? undefined : nativeOf(c, type, schema);
  if (!native) {
    if (type === undefined) log.error(path, node, `property "${name}" has no single type; give it type: string, integer, number or boolean (with "null" for an optional one)`);
    else log.notEnforced(path, node, { key: 'schema' }, `property ${name} of type ${type} (a nested value has no column type; the column is left out)`);
    return type === undefined;
  }
  const index = draft.schema.columns.length;
  const column: DraftColumn = { name, type: native };
  if (listed && !nullable) column.required = true;
  if (listed && nullable) log.note({ column: index }, `${name}: required in the schema but nullable, so not required here (the gate treats an absent key and null alike)`);
  const description = nodes.text(nodes.child(schema, 'description'));
  if (description) column.description = description;
  draft.schema.columns.push(column);
  readKeywords(c, schema, path, column, index);
  return true;
}

/** Follows local `$ref`s, at most 8 deep (a cycle is not followed forever). */
function resolve(c: ImportContext, node: Node | null | undefined, depth = 0): Node | null | undefined {
  const ref = c.nodes.text(c.nodes.child(node, '$ref'));
  if (ref === undefined || depth > 8) return node;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const target = match ? c.nodes.child(c.nodes.child(c.nodes.root, match[1]!), decodeURIComponent(match[2]!)) : undefined;
  if (target === undefined) {
    c.log.error('$ref', node, `cannot follow $ref "${ref}": only local #/$defs/<name> and #/definitions/<name> references are read`);
    return node;
  }
  return resolve(c, target, depth + 1);
}
