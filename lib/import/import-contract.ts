import { basename } from 'node:path';
import type { ContractDefaults } from '../contract/contract-defaults.js';
import { parseContract } from '../contract/load-contract.js';
import { formatProblem, type ContractProblem } from '../contract/problems.js';
import { YamlReader } from '../contract/yaml-reader.js';
import { describeMarkers, detectSource, IMPORT_SOURCES, type ImportSource } from './detect-source.js';
import { finishDraft } from './finish-draft.js';
import { fromCourse } from './from-course.js';
import { fromDbt } from './from-dbt.js';
import { fromDuckdbPost } from './from-duckdb-post.js';
import { fromJsonSchema } from './from-json-schema.js';
import { fromLesson } from './from-lesson.js';
import { fromPipelinePost } from './from-pipeline-post.js';
import { fromSkill } from './from-skill.js';
import { emptyDraft } from './import-draft.js';
import { ImportLog } from './import-log.js';
import type { ImportContext } from './legacy-shape.js';
import { writeNativeContract } from './native-writer.js';
import { SourceNodes } from './source-nodes.js';

export interface ImportOptions {
  readonly from: ImportSource | 'auto';
  /** The dbt model (or source table) to import when the file has several. */
  readonly model?: string;
  readonly defaults?: ContractDefaults;
}

export interface ImportResult {
  /** The native contract's text; present only when the import has no errors. */
  readonly text?: string;
  /** `<name>.v<major>.yaml`, the file name the contract must have. */
  readonly fileName?: string;
  readonly source?: ImportSource;
  /** How the format was chosen: the keys `--from auto` recognised, or `--from` itself. */
  readonly why?: string;
  /** Problems on the source file (errors and warnings), then any the written contract has. */
  readonly problems: readonly ContractProblem[];
}

const IMPORTERS: Readonly<Record<ImportSource, (c: ImportContext, options: ImportOptions) => void>> = {
  dbt: (c, o) => fromDbt(c, o.model),
  jsonschema: (c) => fromJsonSchema(c),
  'pipeline-post': (c) => fromPipelinePost(c),
  lesson: (c) => fromLesson(c),
  skill: (c) => fromSkill(c),
  'duckdb-post': (c) => fromDuckdbPost(c),
  course: (c) => fromCourse(c),
};

/**
 * Converts a contract of another format into a native one. Never throws for a bad source: every
 * problem is collected with its position on the source. The written contract is loaded back by
 * the native loader before it is returned, so an import either lints or fails here.
 */
export function importContract(text: string, file: string, options: ImportOptions): ImportResult {
  const reader = new YamlReader(withoutAssignment(text), file);
  if (reader.hasErrors) return { problems: reader.problems };
  const nodes = new SourceNodes(reader);
  const log = new ImportLog(reader);
  const chosen = chooseSource(nodes, log, options.from);
  if (!chosen) return { problems: reader.problems };
  const { source, why } = chosen;
  const draft = emptyDraft();
  IMPORTERS[source]({ nodes, log, draft }, options);
  if (log.hasErrors) return { source, why, problems: reader.problems };
  finishDraft(draft, log, file, options.defaults ?? {});
  const major = draft.version?.split('.')[0] ?? '1';
  const fileName = `${draft.name}.v${major}.yaml`;
  const header = `Imported by contract-gate from ${basename(file)} (${source}: ${why}).\nReview the TODO and "not enforced" comments: they are what the source said that this contract does not check.`;
  const written = writeNativeContract(draft, log.notes, header);
  const loaded = parseContract(written, fileName);
  for (const problem of loaded.problems.filter((p) => p.severity === 'error')) {
    log.error(problem.path, reader.root, `the contract written from this file does not load: ${formatProblem(problem)}`);
  }
  return loaded.contract ? { text: written, fileName, source, why, problems: reader.problems } : { source, why, problems: reader.problems };
}

/**
 * A contract pasted from Python (`orders_contract = {...}`): the dict literal is a YAML flow
 * mapping, the assignment before it is not. It is blanked, not cut, so positions stay those of the file.
 */
function withoutAssignment(text: string): string {
  return text.replace(/^(\s*(?:#[^\n]*\n\s*)*)([A-Za-z_][A-Za-z0-9_]*\s*=\s*)(?=\{)/, (_all, before: string, assignment: string) => before + ' '.repeat(assignment.length));
}

function chooseSource(nodes: SourceNodes, log: ImportLog, from: ImportOptions['from']): { source: ImportSource; why: string } | undefined {
  if (from !== 'auto') return { source: from, why: 'named with --from' };
  const detected = detectSource(nodes);
  if (detected.kind === 'source') return detected;
  if (detected.kind === 'native') log.error('', nodes.root, `this is a native contract already (${detected.why}): check it with contract-gate lint`);
  else if (detected.kind === 'odcs') log.error('', nodes.root, `this is an ODCS v3 contract (${detected.why}): the gate loads it as it is; check it with contract-gate lint (with --default-notify / --default-format for what it leaves out)`);
  else if (detected.kind === 'registration') log.error('', nodes.root, `this is a consumer registration (${detected.why}), a part of a contract: paste it into the contract it registers with, beside contract: and schema:, and import that file`);
  else log.error('', nodes.root, `cannot tell what format this is; name it with --from (${IMPORT_SOURCES.join(', ')}). Looked for: ${describeMarkers()}`);
  return undefined;
}
