import { basename } from 'node:path';
import type { ContractDefaults } from '../contract/contract-defaults.js';
import { parseContract } from '../contract/load-contract.js';
import { formatProblem, type ContractProblem } from '../contract/problems.js';
import { YamlReader } from '../contract/yaml-reader.js';
import { describeMarkers, detectSource, type ImportSource } from './detect-source.js';
import { finishDraft } from './finish-draft.js';
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
};

/**
 * Converts a contract of another format into a native one. Never throws for a bad source: every
 * problem is collected with its position on the source. The written contract is loaded back by
 * the native loader before it is returned, so an import either lints or fails here.
 */
export function importContract(text: string, file: string, options: ImportOptions): ImportResult {
  const reader = new YamlReader(text, file);
  if (reader.hasErrors) return { problems: reader.problems };
  const nodes = new SourceNodes(reader);
  const log = new ImportLog(reader);
  const source = chooseSource(nodes, log, options.from);
  if (!source) return { problems: reader.problems };
  const draft = emptyDraft();
  IMPORTERS[source]({ nodes, log, draft }, options);
  if (log.hasErrors) return { source, problems: reader.problems };
  finishDraft(draft, log, file, options.defaults ?? {});
  const major = draft.version?.split('.')[0] ?? '1';
  const fileName = `${draft.name}.v${major}.yaml`;
  const header = `Imported by contract-gate from ${basename(file)} (${source}).\nReview the TODO and "not enforced" comments: they are what the source said that this contract does not check.`;
  const written = writeNativeContract(draft, log.notes, header);
  const loaded = parseContract(written, fileName);
  for (const problem of loaded.problems.filter((p) => p.severity === 'error')) {
    log.error(problem.path, reader.root, `the contract written from this file does not load: ${formatProblem(problem)}`);
  }
  return loaded.contract ? { text: written, fileName, source, problems: reader.problems } : { source, problems: reader.problems };
}

function chooseSource(nodes: SourceNodes, log: ImportLog, from: ImportOptions['from']): ImportSource | undefined {
  if (from !== 'auto') return from;
  const detected = detectSource(nodes);
  if (detected.kind === 'source') return detected.source;
  if (detected.kind === 'native') log.error('', nodes.root, `this is a native contract already (${detected.why}): check it with contract-gate lint`);
  else if (detected.kind === 'odcs') log.error('', nodes.root, `this is an ODCS v3 contract (${detected.why}): the gate loads it as it is; check it with contract-gate lint (with --default-notify / --default-format for what it leaves out)`);
  else log.error('', nodes.root, `cannot tell what format this is; name it with --from (dbt, jsonschema, pipeline-post, lesson, skill, duckdb-post). Looked for: ${describeMarkers()}`);
  return undefined;
}
