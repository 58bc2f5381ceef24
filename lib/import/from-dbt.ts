import type { Node } from 'yaml';
import type { DbtAdapter } from '../export/dbt-adapters.js';
import { ColumnRules } from './column-rules.js';
import { readDbtFreshness, sourceTables, type DbtEntry } from './dbt-sources.js';
import { columnType, gateMeta, modelAdapter, modelContract, modelVersion, readColumnMeta } from './dbt-meta.js';
import { readModelTests } from './dbt-model-tests.js';
import { applyColumnTest, dbtTests } from './dbt-tests.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportContext } from './legacy-shape.js';
import { declaredSeverity } from './json-schema-terms.js';
import { KNOWN_TYPE_NAMES } from './type-names.js';

/** Keys of a model or column that describe rather than rule: not rules, so not warned about. */
const DESCRIPTIVE = ['name', 'description', 'meta', 'tags', 'docs', 'quote', 'config', 'columns', 'access', 'group', 'latest_version', 'policy_tags', 'identifier', 'loader', 'external', 'loaded_at_field', 'freshness', 'data_tests', 'tests', 'constraints', 'data_type'];

/**
 * A dbt `schema.yml` (properties version 2): one model or source table becomes the contract.
 * `--model` picks it when there are several. Column `data_type` is the type, `constraints` and
 * the tests the rules (core, dbt_utils, dbt_expectations: dbt-tests.ts), a primary key or
 * unique_combination_of_columns the grain, and source freshness (error_after, warn_after,
 * loaded_at_field) the freshness SLA. A schema.yml `export --to dbt` wrote also carries
 * `meta.contract_gate` (the version, the adapter its types are named for, defaults).
 */
export function fromDbt(c: ImportContext, model: string | undefined): void {
  const entry = chooseEntry(c, model);
  if (!entry) return;
  const { nodes, draft } = c;
  draft.name = modelContract(c, entry.node) ?? entry.name;
  const version = modelVersion(c, entry.node);
  if (version) draft.version = version;
  const description = nodes.text(nodes.child(entry.node, 'description'));
  if (description) draft.description = description;
  const columns = nodes.items(nodes.child(entry.node, 'columns'));
  const adapter = modelAdapter(c, entry.node);
  columns.forEach((node, i) => readColumn(c, node, `${entry.path}.columns[${i}]`, adapter));
  readModelTests(c, entry);
  if (columns.length === 0) columnsUnknown(c, entry);
  readDbtFreshness(c, entry);
  for (const column of draft.schema.columns) declaredSeverity(column, draft.schema.grain ?? []);
  for (const key of nodes.keys(entry.node).filter((k) => !DESCRIPTIVE.includes(k))) {
    c.log.notEnforced(`${entry.path}.${key}`, nodes.keyNode(entry.node, key), { key: 'schema' }, `${entry.kind} key ${key}`);
  }
}

/**
 * A model lists its columns; a source table often does not (a sources.yml names what to load
 * and how fresh it must be). Then the only column known is the one freshness is measured on,
 * a timestamp, and the rest is a TODO; without one there is nothing to write.
 */
function columnsUnknown(c: ImportContext, entry: DbtEntry): void {
  const { nodes, log, draft } = c;
  const loadedAt = nodes.text(nodes.child(entry.node, 'loaded_at_field')) ?? nodes.text(nodes.child(entry.sourceNode, 'loaded_at_field'));
  if (entry.kind === 'model' || loadedAt === undefined) {
    log.error(`${entry.path}.columns`, entry.node, `${entry.kind} "${entry.name}" lists no columns; the contract needs each column with its data_type`);
    return;
  }
  draft.schema.columns.push({ name: loadedAt, type: 'timestamp' });
  log.placeholder(`${entry.path}.columns`, entry.node, { column: 0 }, `source table "${entry.name}" lists no columns: only its loaded_at_field ${loadedAt} is written, as a timestamp; add the other columns (import the model's schema.yml, or write them)`);
}

function chooseEntry(c: ImportContext, wanted: string | undefined): DbtEntry | undefined {
  const { nodes } = c;
  const models = nodes.items(nodes.child(nodes.root, 'models')).map((node, i): DbtEntry => ({ kind: 'model', name: nodes.text(nodes.child(node, 'name')) ?? '?', node, path: `models[${i}]` }));
  const entries = [...models, ...sourceTables(c)];
  const names = entries.map((e) => (e.source ? `${e.source}.${e.name}` : e.name));
  const listed = names.join(', ') || 'none';
  if (wanted !== undefined) {
    // A model and the source table it is built from often share a name: the model is meant, and takes the table's freshness.
    const found = models.find((e) => e.name === wanted) ?? entries.find((_, i) => names[i] === wanted) ?? entries.find((e) => e.name === wanted);
    if (!found) c.log.error('models', nodes.root, `--model ${wanted}: no model or source table is named so; there are: ${listed}`);
    return found;
  }
  if (entries.length === 1) return entries[0];
  // `export --to dbt` writes one model, marked, and the source table it is published as.
  const exported = models.filter((e) => gateMeta(c, e.node) !== undefined);
  if (exported.length === 1) return exported[0];
  c.log.error('models', nodes.root, entries.length === 0 ? 'the file has no models and no source tables' : `the file describes ${entries.length} models and source tables (${listed}); pick one with --model <name>`);
  return undefined;
}

function readColumn(c: ImportContext, node: Node | null, path: string, adapter: DbtAdapter | undefined): void {
  const { nodes, log, draft } = c;
  const name = nodes.text(nodes.child(node, 'name'));
  const typeNode = nodes.child(node, 'data_type');
  const typeText = nodes.text(typeNode);
  if (name === undefined) log.error(`${path}.name`, node, 'the column has no name');
  if (typeText === undefined) log.error(`${path}.data_type`, node, `column "${name ?? '?'}" has no data_type; add data_type: <warehouse type> (${KNOWN_TYPE_NAMES}) — dbt's enforced model contracts need it too`);
  const mapped = typeText === undefined ? undefined : columnType(c, node, typeText, adapter);
  if (typeText !== undefined && !mapped) log.error(`${path}.data_type`, typeNode, `unknown data_type "${typeText}" of column "${name ?? '?'}"; expected one of ${KNOWN_TYPE_NAMES}`);
  if (name === undefined || !mapped) return;
  const index = draft.schema.columns.length;
  const column: DraftColumn = { name, type: mapped.type, ...(mapped.maxLength === undefined ? {} : { max_length: mapped.maxLength }) };
  if (mapped.note) log.note({ column: index }, `${name}: ${mapped.note}`);
  const description = nodes.text(nodes.child(node, 'description'));
  if (description) column.description = description;
  draft.schema.columns.push(column);
  const rules = new ColumnRules(log, column, index, path);
  readConstraints(c, node, path, column, index);
  // A warehouse enforces a constraint whatever a test's severity says.
  const hard = new Set([...(column.required ? ['required'] : []), ...(column.unique ? ['unique'] : [])]);
  for (const test of dbtTests(nodes, node, path)) applyColumnTest(nodes, log, rules, column, index, test, hard, draft.schema.grain);
  readColumnMeta(c, node, column);
  for (const key of nodes.keys(node).filter((k) => !DESCRIPTIVE.includes(k))) log.notEnforced(`${path}.${key}`, nodes.keyNode(node, key), { column: index }, `${name}.${key}`);
}

/** Column constraints: not_null and unique are rules, primary_key the grain; check and foreign_key are comments. */
function readConstraints(c: ImportContext, node: Node | null, path: string, column: DraftColumn, index: number): void {
  const { nodes, log, draft } = c;
  nodes.items(nodes.child(node, 'constraints')).forEach((constraint, i) => {
    const type = nodes.text(nodes.child(constraint, 'type'));
    if (type === 'not_null') column.required = true;
    else if (type === 'unique') column.unique = true;
    else if (type === 'primary_key') draft.schema.grain = [...(draft.schema.grain ?? []), column.name];
    else log.notEnforced(`${path}.constraints[${i}]`, constraint, { column: index }, `constraint ${type ?? '?'}${nodes.text(nodes.child(constraint, 'expression')) ? ` (${nodes.text(nodes.child(constraint, 'expression'))})` : ''} on ${column.name}`);
  });
}
