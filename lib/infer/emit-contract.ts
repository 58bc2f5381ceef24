import { Document, isMap, isScalar, isSeq, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { formatColumnType } from '../contract/column-type.js';
import { choiceLines } from './choice.js';
import type { ProposedColumn, ProposedContract } from './proposal.js';

/** Placeholders the owner must replace; they lint, so the proposal validates as it is. */
export const TODO_TEAM = 'TODO-owning-team';
export const TODO_NOTIFY = 'todo-oncall@example.com';

/**
 * Writes a proposal as a contract in this project's format, each rule preceded by a comment
 * saying what it was inferred from, so a reviewer can judge every line.
 */
export function emitContract(proposal: ProposedContract): string {
  const doc = new Document(plainContract(proposal));
  doc.commentBefore = header(proposal);
  const root = doc.contents as YAMLMap;
  for (const key of ['owner', 'produces', 'compat']) mapAt(root, key).flow = true;
  comment(root, 'owner', ' TODO: the owning team, and the addresses the gate pages when a partition fails');
  comment(root, 'produces', lines([proposal.partitionNote, ...(proposal.csv?.notes.map((n) => `csv ${n}`) ?? [])]));
  const schema = mapAt(root, 'schema');
  comment(schema, proposal.grain.length ? 'grain' : 'extra_columns', lines(proposal.grainNotes));
  if (proposal.grain.length) seqAt(schema, 'grain').flow = true;
  commentColumns(seqAt(schema, 'columns'), proposal);
  commentSla(root, proposal);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function header(p: ProposedContract): string {
  return lines([
    `Proposed by contract-gate infer from ${p.summary}.`,
    'Each rule is what the samples showed, not what the data must be: review every one, fill in',
    'the TODOs, and validate the contract against partitions it was not inferred from.',
  ]);
}

function plainContract(p: ProposedContract): Record<string, unknown> {
  const sla = {
    ...(p.freshness ? { max_lag_hours: p.freshness.maxLagHours, freshness_column: p.freshness.column } : {}),
    ...(p.volume?.minRows !== undefined ? { min_rows: p.volume.minRows } : {}),
    ...(p.volume?.maxRows !== undefined ? { max_rows: p.volume.maxRows } : {}),
  };
  return {
    name: p.name,
    version: `${p.major}.0.0`,
    status: 'active',
    owner: { team: TODO_TEAM, notify: [TODO_NOTIFY] },
    description: 'TODO: what one row is, and as of when',
    produces: { format: p.format, partition: p.partition, ...(p.csv ? { csv: p.csv.values } : {}) },
    schema: { ...(p.grain.length ? { grain: [...p.grain] } : {}), extra_columns: 'allow', columns: p.columns.map(plainColumn) },
    ...(Object.keys(sla).length ? { sla } : {}),
    compat: { mode: 'backward' },
  };
}

function plainColumn(c: ProposedColumn): Record<string, unknown> {
  return {
    name: c.name,
    type: formatColumnType(c.type),
    ...(c.required ? { required: true } : {}),
    ...(c.enum ? { enum: [...c.enum] } : {}),
    ...(c.min !== undefined ? { min: c.min } : {}),
    ...(c.max !== undefined ? { max: c.max } : {}),
    ...(c.notInFuture ? { not_in_future: true } : {}),
  };
}

/** One flow mapping per column, as hand-written contracts have them, under its notes. */
function commentColumns(seq: YAMLSeq, p: ProposedContract): void {
  seq.items.forEach((item, i) => {
    if (!isMap(item)) return;
    item.flow = true;
    item.commentBefore = lines(p.columns[i]!.notes.map((note) => `${p.columns[i]!.name}: ${note}`));
  });
  if (p.leftOut.length === 0) return;
  const left = p.leftOut.map((c) => `  ${c.name}: ${c.reason}`);
  seq.comment = lines(['not declared (extra_columns: allow lets them through):', ...left]);
}

function commentSla(root: YAMLMap, p: ProposedContract): void {
  const sla = root.get('sla', true);
  const clock = 'arrival_by and timezone (the clock SLA) are not inferred: add them if partitions have a deadline';
  // Without a freshness rule, why there is none goes with the note on the SLA.
  const note = lines(p.freshness ? [clock] : [clock, ...choiceLines(p.freshnessChoice)]);
  if (!isMap(sla)) return comment(root, 'compat', note);
  comment(root, 'sla', note);
  if (p.freshness) comment(sla, 'max_lag_hours', lines([...choiceLines(p.freshnessChoice), ...p.freshness.notes]));
  if (p.volume) comment(sla, p.volume.minRows !== undefined ? 'min_rows' : 'max_rows', ` ${p.volume.note}`);
}

function comment(map: YAMLMap, key: string, text: string): void {
  const pair = map.items.find((item: Pair) => isScalar(item.key) && item.key.value === key);
  if (pair && isScalar(pair.key)) pair.key.commentBefore = text;
}

/** Comment lines as the yaml package takes them: each after its own `#`, with a space. */
function lines(texts: readonly string[]): string {
  return texts.map((t) => ` ${t}`).join('\n');
}

function mapAt(map: YAMLMap, key: string): YAMLMap {
  const node: unknown = map.get(key, true);
  if (!isMap(node)) throw new Error(`${key} is not a mapping`);
  return node;
}

function seqAt(map: YAMLMap, key: string): YAMLSeq {
  const node: unknown = map.get(key, true);
  if (!isSeq(node)) throw new Error(`${key} is not a sequence`);
  return node;
}
