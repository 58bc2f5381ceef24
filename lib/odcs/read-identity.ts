import { isScalar, type Node } from 'yaml';
import { NAME, readDate, readVersion } from '../contract/native-contract.js';
import type { Contract, SemVer } from '../contract/model.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { readCustom, type CustomValues } from './custom-properties.js';
import { odcsEntries, optional } from './odcs-nodes.js';

const STATUSES = ['active', 'deprecated', 'retired'] as const;
const DESCRIPTION_KEYS = ['usage', 'purpose', 'limitations', 'authoritativeDefinitions', 'customProperties'];

export type Identity = Partial<Pick<Contract, 'name' | 'version' | 'status' | 'sunset' | 'description'>>;

export function readIdentity(reader: YamlReader, top: Entries, root: Node | null, custom: CustomValues, endOfLife: string | undefined, objectNames: readonly string[] = []): Identity {
  const name = top.has('name') ? optional(top, 'name', (n) => readName(reader, n)) : nameFromObject(reader, root, objectNames);
  if (!top.has('version')) reader.report('missing_key', 'version', root, 'missing required key "version"');
  const version = optional(top, 'version', (n) => readVersion(reader, n));
  const status = optional(top, 'status', (n) => readStatus(reader, n)) ?? 'active';
  const sunset = readCustom(custom, 'sunset', (n, p) => readDate(reader, n, p)) ?? endOfLife;
  if (status === 'deprecated' && sunset === undefined && !custom.has('sunset')) {
    // Valid ODCS, so a warning: the gate passes its drops with a deprecation notice and never retires it.
    reader.report('sunset_required', 'status', top.get('status')?.value, 'a deprecated version without a sunset date is never retired by the gate; add an endOfLife SLA property or the custom property contractGate.sunset', 'warning');
  }
  const description = optional(top, 'description', (n) => readDescription(reader, n));
  return { name, version, status, sunset, description };
}

/**
 * ODCS makes the contract's `name` optional (`id` is its identity, often a UUID); the schema
 * object the contract describes is then the dataset, and its name is the dataset's, with a warning.
 */
function nameFromObject(reader: YamlReader, root: Node | null, objectNames: readonly string[]): string | undefined {
  const objectName = objectNames.at(-1); // physicalName when given: it names the stored table
  const normal = objectName === undefined ? undefined : normalName(objectName);
  if (normal === undefined) {
    reader.report('missing_key', 'name', root, 'missing key "name": contract-gate needs the dataset name (lower case letters, digits, "_" or "-", starting with a letter)');
    return undefined;
  }
  reader.report('missing_key', 'name', root, `the contract has no "name"; the dataset is named "${normal}" after its schema object`, 'warning');
  return normal;
}

function normalName(name: string): string | undefined {
  if (NAME.test(name)) return name;
  const normal = name.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^[^a-z]+|_+$/g, '');
  return NAME.test(normal) ? normal : undefined;
}

/** A dataset name names S3 prefixes; an ODCS name such as "Orders Stream" is normalised, with a warning. */
function readName(reader: YamlReader, node: Node | null): string | undefined {
  const name = reader.string(node, 'name');
  if (name === undefined || NAME.test(name)) return name;
  const normal = normalName(name);
  if (normal !== undefined) {
    reader.report('invalid_value', 'name', node, `"${name}" is not a dataset name; it is read as "${normal}"`, 'warning');
    return normal;
  }
  reader.report('invalid_value', 'name', node, `"${name}" is not a dataset name; expected lower case letters, digits, "_" or "-", starting with a letter`);
  return undefined;
}

/** ODCS statuses are free text; the ones before release (draft, proposed, ...) are gated like active. */
function readStatus(reader: YamlReader, node: Node | null): Contract['status'] | undefined {
  const text = reader.string(node, 'status');
  const status = STATUSES.find((s) => s === text?.toLowerCase());
  if (text !== undefined && status === undefined) {
    reader.report('invalid_value', 'status', node, `status "${text}" is not active, deprecated or retired; the contract is enforced as active`, 'warning');
  }
  return text === undefined ? undefined : status ?? 'active';
}

/** ODCS describes a contract by purpose, usage and limitations; ours is one text: the purpose. */
function readDescription(reader: YamlReader, node: Node | null): string | undefined {
  if (isScalar(reader.resolve(node))) return reader.string(node, 'description'); // ODCS v2 wrote a text
  const entries = odcsEntries(reader, node, 'description', DESCRIPTION_KEYS);
  return entries ? optional(entries, 'purpose', (n) => reader.string(n, 'description.purpose')) : undefined;
}

/** `orders.v1.yaml` or `orders.v1.odcs.yaml` must hold dataset `orders` at major version 1. */
export function checkFileName(reader: YamlReader, top: Entries, name: string | undefined, version: SemVer | undefined): void {
  const match = /(?:^|[\\/])([^\\/]+)\.v(\d+)(?:\.odcs)?\.ya?ml$/.exec(reader.file);
  if (!match || name === undefined) return;
  if (match[1] !== name) reader.report('name_mismatch', 'name', top.get('name')?.value, `the file is named for dataset "${match[1]}" but declares "${name}"`);
  if (version && Number(match[2]) !== version.major) {
    reader.report('name_mismatch', 'version', top.get('version')?.value, `the file is named for major version ${match[2]} but declares ${version.text}; a new major version is a new file`);
  }
}
