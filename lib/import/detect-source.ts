import type { SourceNodes } from './source-nodes.js';

export const IMPORT_SOURCES = ['dbt', 'jsonschema', 'pipeline-post', 'lesson', 'skill', 'duckdb-post'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** What `--from auto` finds: a source to import, a contract already, or nothing it knows. */
export type Detected = { readonly kind: 'source'; readonly source: ImportSource; readonly why: string } | { readonly kind: 'odcs' | 'native'; readonly why: string } | { readonly kind: 'unknown' };

interface Rule {
  readonly result: Exclude<Detected, { kind: 'unknown' }>;
  readonly test: (n: SourceNodes) => boolean;
}

const has = (n: SourceNodes, ...path: string[]) => path.reduce<ReturnType<SourceNodes['child']>>((node, key) => n.child(node, key), n.root) !== undefined;

/**
 * The markers, checked in this order; the first that holds decides. Each is a key the format
 * requires and the others do not use at that place, so no file matches two by accident.
 */
const RULES: readonly Rule[] = [
  { result: { kind: 'odcs', why: 'kind: DataContract with apiVersion v3' }, test: (n) => n.value(n.child(n.root, 'kind')) === 'DataContract' && String(n.value(n.child(n.root, 'apiVersion')) ?? '').startsWith('v3') },
  { result: { kind: 'native', why: 'name, owner.team and schema.columns at the top' }, test: (n) => has(n, 'name') && has(n, 'owner', 'team') && has(n, 'schema', 'columns') },
  { result: { kind: 'source', source: 'dbt', why: 'models or sources lists (a dbt schema.yml)' }, test: (n) => n.isList(n.child(n.root, 'models')) || n.isList(n.child(n.root, 'sources')) },
  { result: { kind: 'source', source: 'jsonschema', why: '$schema naming json-schema.org, or type: object with properties' }, test: (n) => /json-schema\.org/.test(n.text(n.child(n.root, '$schema')) ?? '') || (n.text(n.child(n.root, 'type')) === 'object' && n.isMap(n.child(n.root, 'properties'))) },
  { result: { kind: 'source', source: 'lesson', why: 'contract.producer or schema.fields (the lesson shape)' }, test: (n) => has(n, 'contract', 'producer') || n.isList(n.child(n.child(n.root, 'schema'), 'fields')) },
  { result: { kind: 'source', source: 'skill', why: 'a contract mapping beside a schema list (the skill shape)' }, test: (n) => n.isMap(n.child(n.root, 'contract')) && n.isList(n.child(n.root, 'schema')) },
  { result: { kind: 'source', source: 'pipeline-post', why: 'produces.uri, or a columns list beside a plain-text owner (the pipeline-post shape)' }, test: (n) => has(n, 'produces', 'uri') || (n.isList(n.child(n.root, 'columns')) && n.text(n.child(n.root, 'owner')) !== undefined && !has(n, 'dataset')) },
  { result: { kind: 'source', source: 'duckdb-post', why: 'dataset beside a columns list (the DuckDB-post shape)' }, test: (n) => has(n, 'dataset') && n.isList(n.child(n.root, 'columns')) },
];

export function detectSource(nodes: SourceNodes): Detected {
  return RULES.find((rule) => rule.test(nodes))?.result ?? { kind: 'unknown' };
}

/** For the error when nothing matches: each format and its marker. */
export function describeMarkers(): string {
  return RULES.map((rule) => `${rule.result.kind === 'source' ? rule.result.source : rule.result.kind}: ${rule.result.why}`).join('; ');
}
