import { isMap, type Node } from 'yaml';
import type { ContractDefaults, LoadOptions } from '../contract/contract-defaults.js';
import type { LoadResult } from '../contract/native-contract.js';
import type { ColumnSpec, Contract } from '../contract/model.js';
import { YamlReader } from '../contract/yaml-reader.js';
import { readReferenceRows } from '../contract/read-reference-rows.js';
import { readCustom, readCustomProperties, TOP_CUSTOM } from './custom-properties.js';
import { TOP_KEYS } from './odcs-keys.js';
import { odcsEntries, peekChild } from './odcs-nodes.js';
import { readConsumers } from './read-consumers.js';
import { readDataset, type DatasetRead } from './read-dataset.js';
import { checkFileName, readIdentity } from './read-identity.js';
import { readOwner } from './read-owner.js';
import { readProduces } from './read-produces.js';
import { assembleSla } from './read-sla.js';
import { readSlaProperties } from './read-sla-properties.js';
import { chooseTolerance, readCustomTolerance } from './read-tolerance.js';

/** An Open Data Contract Standard v3 document: `kind: DataContract` with an `apiVersion` v3.x. */
export function isOdcsDocument(reader: YamlReader): boolean {
  const root = reader.resolve(reader.root);
  if (!root || !isMap(root)) return false;
  const apiVersion = peekChild(reader, root, 'apiVersion');
  return peekChild(reader, root, 'kind') === 'DataContract' && typeof apiVersion === 'string' && apiVersion.startsWith('v3');
}

/**
 * Loads an ODCS v3 contract as a contract-gate contract. Like parseContract it never throws for
 * a bad document: every problem is collected with its position, and the contract is present
 * only when there is no error. What ODCS cannot say comes from `contractGate.*` custom
 * properties (see custom-properties.ts); ODCS rules no check of ours carries are warnings.
 */
export function parseOdcsContract(text: string, file: string, options: LoadOptions = {}): LoadResult {
  return readOdcsContract(new YamlReader(text, file), options);
}

/** The same, for a document parseContract has parsed already. */
export function readOdcsContract(reader: YamlReader, options: LoadOptions = {}): LoadResult {
  const contract = reader.hasErrors ? undefined : readContract(reader, reader.root, options.defaults ?? {});
  const problems = [...reader.problems].sort((a, b) => a.line - b.line || a.column - b.column);
  return reader.hasErrors || !contract ? { problems } : { contract, problems };
}

function readContract(reader: YamlReader, root: Node | null, defaults: ContractDefaults): Contract | undefined {
  const top = odcsEntries(reader, root, '', TOP_KEYS);
  if (!top) return undefined;
  const custom = readCustomProperties(reader, top.get('customProperties')?.value, 'customProperties', TOP_CUSTOM);
  const dataset = readDataset(reader, top, root, custom);
  const promises = readSlaProperties(reader, top, dataset);
  const { name, version, status, sunset, description } = readIdentity(reader, top, root, custom, promises.endOfLife, dataset?.objectNames);
  const sla = assembleSla(reader, custom, promises, dataset);
  const owner = readOwner(reader, top, root, custom, defaults);
  const produces = readProduces(reader, top, root, custom, defaults);
  const consumers = readCustom(custom, 'consumers', (n, p) => readConsumers(reader, n, p, (column) => !dataset || dataset.find(column) !== undefined)) ?? [];
  const mode = readCustom(custom, 'compat', (n, p) => reader.oneOf(n, p, ['backward', 'forward', 'full', 'none'] as const)) ?? 'backward';
  const declared = readCustom(custom, 'onViolation', (n, p) => readCustomTolerance(reader, n, p));
  const onViolation = chooseTolerance(reader, dataset?.tolerances ?? [], declared);
  checkFileName(reader, top, name, version);
  const schema = dataset?.schema;
  if (schema && name) checkSelfReferences(reader, schema.columns, name, dataset);
  const declaredColumns = new Set(schema?.columns.map((c) => c.name));
  const referenceRows = schema ? readCustom(custom, 'referenceRows', (n, p) => readReferenceRows(reader, n, { schema, declared: declaredColumns }, p)) : undefined;
  if (!name || !version || !status || !owner || !produces || !schema || reader.hasErrors) return undefined;
  return { name, version, status, sunset, owner, description, produces, schema, sla, consumers, compat: { mode }, ...(onViolation ? { onViolation } : {}), ...(referenceRows?.length ? { referenceRows } : {}) };
}

/** A column referencing itself would be checked against its own keys, as the native loader refuses too. */
function checkSelfReferences(reader: YamlReader, columns: readonly ColumnSpec[], name: string, dataset: DatasetRead): void {
  for (const column of columns) {
    if (column.references?.contract !== name || column.references.column !== column.name) continue;
    const property = dataset.find(column.name);
    reader.report('self_reference', property?.path ?? 'schema', property?.node ?? null, `column "${column.name}" references itself in contract "${name}": its values would be checked against their own keys; name the column of another contract (or another column of this one) it points to`);
  }
}
