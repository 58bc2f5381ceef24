import type { Node } from 'yaml';
import { datasetNameProblem } from '../contract/dataset-name.js';
import { COLUMN_SEVERITY_RULES, type ColumnReference, type ColumnSeverityRule, type ColumnSpec, type Severity, type SeverityMap } from '../contract/model.js';
import { readReferences } from '../contract/read-references.js';
import { readSeverity, undeclaredColumnRules, withoutUndeclared, type SeverityRead } from '../contract/read-severity.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { readCustom, type CustomValues } from './custom-properties.js';
import { odcsEntries, odcsItems, peek } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import type { PropertyQuality } from './read-quality.js';

/** What the property states outside the quality rules, so a quality rule's warning does not weaken it. */
export interface HardStatements {
  readonly required: boolean;
  readonly unique: boolean;
  readonly pattern: boolean;
}

/**
 * The column's severities: `contractGate.severity` for the rules it names (the native
 * `severity`, including the shorthand `warn` for every rule), and the `severity` of the quality
 * rules for the rest. A warning quality rule weakens nothing the property states elsewhere
 * (`required: true`, `unique: true`, a pattern in logicalTypeOptions): all of them hold.
 */
export function readColumnSeverity(reader: YamlReader, custom: CustomValues, quality: PropertyQuality, hard: HardStatements, column: ColumnSpec, inGrain: boolean): SeverityMap<ColumnSeverityRule> | undefined {
  const fromQuality: Partial<Record<ColumnSeverityRule, Severity>> = {};
  for (const [rule, severity] of Object.entries(quality.severity ?? {})) {
    if (severity === 'warn' && !hard[rule as keyof HardStatements]) fromQuality[rule as ColumnSeverityRule] = 'warn';
  }
  const entry = custom.get('severity');
  const read: SeverityRead<ColumnSeverityRule> = entry ? readSeverity(reader, entry.value, entry.path, COLUMN_SEVERITY_RULES, true) : { named: new Map() };
  const map: Partial<Record<ColumnSeverityRule, Severity>> = { ...fromQuality, ...read.map };
  for (const rule of read.named.keys()) if (read.map?.[rule] !== 'warn') delete map[rule];
  const declares = undeclaredColumnRules(column, inGrain, () => false);
  return withoutUndeclared(reader, entry?.path ?? '', { map, named: read.named }, declares, `column "${column.name}"`);
}

const RELATIONSHIP_KEYS = ['type', 'to', 'customProperties'] as const;
const SHORTHAND = /^([^./#]+)\.([^./#]+)$/;

/**
 * A foreign key: `contractGate.references` (the native shape, with major and partition), else the
 * first ODCS relationship `to: contract.column`. A reference names another contract of the lake;
 * whether it exists is lint's to check, as for native contracts.
 */
export function readColumnReference(reader: YamlReader, entries: Entries, custom: CustomValues, path: string): ColumnReference | undefined {
  const declared = readCustom(custom, 'references', (n, p) => readReferences(reader, n, p, {}));
  let found = custom.has('references');
  let reference = declared;
  for (const item of odcsItems(reader, entries, path, 'relationships')) {
    if (found) {
      notEnforced(reader, item.path, item.node, 'a second reference', custom.has('references') ? 'contractGate.references says the reference' : 'one reference per column is checked: the first');
      continue;
    }
    const read = readRelationship(reader, item.node, item.path);
    found = read !== undefined;
    reference = read ?? reference;
  }
  return reference;
}

function readRelationship(reader: YamlReader, node: Node | null, path: string): ColumnReference | undefined {
  const fields = odcsEntries(reader, node, path, RELATIONSHIP_KEYS);
  if (!fields) return undefined;
  const type = peek(reader, fields.get('type')?.value);
  const to = peek(reader, fields.get('to')?.value);
  const match = typeof to === 'string' ? SHORTHAND.exec(to) : null;
  const problem = match?.[1] === undefined ? undefined : datasetNameProblem(match[1]);
  if (type !== undefined && type !== 'foreignKey') {
    notEnforced(reader, `${path}.type`, fields.get('type')?.value, `relationship of type ${String(type)}`);
  } else if (!match) {
    const why = typeof to === 'string' ? `"${to}" is not table.column (a reference by id cannot be resolved)` : 'a composite key is checked only as a grain';
    notEnforced(reader, `${path}.to`, fields.get('to')?.value ?? node, 'the relationship', `${why}; name the target with contractGate.references: { contract, column }`);
  } else if (problem) {
    notEnforced(reader, `${path}.to`, fields.get('to')?.value ?? node, `the relationship to "${to as string}"`, `${problem}, and the table must be a contract of the lake; name it with contractGate.references`);
  } else {
    return { contract: match[1]!, column: match[2]! };
  }
  return undefined;
}
