import type { Node } from 'yaml';
import type { SourceNodes } from './source-nodes.js';

export const IMPORT_SOURCES = ['dbt', 'jsonschema', 'pipeline-post', 'lesson', 'skill', 'duckdb-post', 'course'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/**
 * What `--from auto` finds: a source to import, a contract already, a consumer registration
 * (part of a contract, not one), or nothing it knows. `why` names the keys that decided.
 */
export type Detected =
  | { readonly kind: 'source'; readonly source: ImportSource; readonly why: string }
  | { readonly kind: 'odcs' | 'native' | 'registration'; readonly why: string }
  | { readonly kind: 'unknown' };

type Found = Exclude<Detected, { kind: 'unknown' }>;

interface Rule {
  /** The format, for the list of markers when nothing matches. */
  readonly name: string;
  readonly marker: string;
  /** The reason this file is of the format, or undefined when it is not. */
  readonly test: (n: SourceNodes) => Found | undefined;
}

const at = (n: SourceNodes, ...path: string[]): Node | null | undefined => path.reduce<Node | null | undefined>((node, key) => n.child(node, key), n.root);
const has = (n: SourceNodes, ...path: string[]) => at(n, ...path) !== undefined;
const source = (name: ImportSource, why: string): Found => ({ kind: 'source', source: name, why });
const plainOwner = (n: SourceNodes) => n.text(at(n, 'owner')) !== undefined;

/**
 * The markers, checked in this order; the first that holds decides. Each is a key the format
 * requires and the others do not use at that place, so no file matches two by accident. The
 * printed shapes: pipeline-post `produces.uri` and `schema.columns` beside `owner: <team>`; lesson
 * `contract.producer` and `schema.fields`; skill `contract:` beside a `schema:` list; course a
 * `fields` mapping of column names; duckdb-post `dataset:` beside `columns:`.
 */
const RULES: readonly Rule[] = [
  {
    name: 'odcs', marker: 'kind: DataContract with apiVersion v3',
    test: (n) => (n.value(at(n, 'kind')) === 'DataContract' && String(n.value(at(n, 'apiVersion')) ?? '').startsWith('v3') ? { kind: 'odcs', why: 'kind: DataContract with apiVersion v3' } : undefined),
  },
  {
    name: 'native', marker: 'name, owner.team and schema.columns at the top',
    test: (n) => (has(n, 'name') && has(n, 'owner', 'team') && has(n, 'schema', 'columns') ? { kind: 'native', why: 'name, owner.team and schema.columns at the top' } : undefined),
  },
  {
    name: 'dbt', marker: 'models or sources lists (a dbt schema.yml)',
    test: (n) => (n.isList(at(n, 'models')) ? source('dbt', 'a models list, as in a dbt schema.yml') : n.isList(at(n, 'sources')) ? source('dbt', 'a sources list, as in a dbt sources.yml') : undefined),
  },
  {
    name: 'jsonschema', marker: '$schema naming json-schema.org, or type: object with properties',
    test: (n) => (/json-schema\.org/.test(n.text(at(n, '$schema')) ?? '') ? source('jsonschema', '$schema names json-schema.org')
      : n.text(at(n, 'type')) === 'object' && n.isMap(at(n, 'properties')) ? source('jsonschema', 'type: object with properties') : undefined),
  },
  {
    name: 'lesson', marker: 'contract.producer or a schema.fields list',
    test: (n) => (has(n, 'contract', 'producer') ? source('lesson', 'contract.producer') : n.isList(at(n, 'schema', 'fields')) ? source('lesson', 'a schema.fields list') : undefined),
  },
  {
    name: 'skill', marker: 'a contract mapping beside a top-level schema list',
    test: (n) => (n.isMap(at(n, 'contract')) && n.isList(at(n, 'schema')) ? source('skill', 'a contract mapping beside a top-level schema list') : undefined),
  },
  {
    name: 'course', marker: 'a fields mapping from each column name to its rules',
    test: (n) => (n.isMap(at(n, 'fields')) && n.keys(at(n, 'fields')).every((key) => n.isMap(at(n, 'fields', key))) ? source('course', 'a fields mapping from each column name to its rules, as in a dict literal') : undefined),
  },
  {
    name: 'pipeline-post', marker: 'produces.uri, or schema.columns beside a plain-text owner',
    test: (n) => (has(n, 'produces', 'uri') ? source('pipeline-post', 'produces.uri')
      : n.isList(at(n, 'schema', 'columns')) && plainOwner(n) ? source('pipeline-post', 'schema.columns beside a plain-text owner') : undefined),
  },
  {
    name: 'duckdb-post', marker: 'dataset beside a columns list',
    test: (n) => (n.text(at(n, 'dataset')) !== undefined && n.isList(at(n, 'columns')) ? source('duckdb-post', 'dataset beside a columns list') : undefined),
  },
  {
    name: 'registration', marker: 'only a consumers list of teams',
    test: (n) => (isRegistration(n) ? { kind: 'registration', why: 'a consumers list of { team, contact, uses } and no schema' } : undefined),
  },
];

function isRegistration(n: SourceNodes): boolean {
  const items = n.items(at(n, 'consumers'));
  return items.length > 0 && items.every((item) => n.text(n.child(item, 'team')) !== undefined) && !has(n, 'schema') && !has(n, 'columns');
}

export function detectSource(nodes: SourceNodes): Detected {
  for (const rule of RULES) {
    const found = rule.test(nodes);
    if (found) return found;
  }
  return { kind: 'unknown' };
}

/** For the error when nothing matches: each format and its marker. */
export function describeMarkers(): string {
  return RULES.map((rule) => `${rule.name}: ${rule.marker}`).join('; ');
}
