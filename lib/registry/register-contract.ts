import { declaredBump } from '../compat/bump.js';
import type { ContractDiff } from '../compat/contract-diff.js';
import { formatVerdict } from '../compat/format-diff.js';
import { parseContract, type LoadOptions } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { readPointer, readRegisteredText, pointerListing, type PointerRead } from './registry-objects.js';
import { DEFAULT_REGISTRY_PREFIX, migrationKey, pointerKey, versionKey, type RegisteredMigration, type RegistryPointer } from './registry-layout.js';
import { isOwnMajorFile, judgeSuccessor, ownMajorFile, parseVersion, refusalReason } from './successor-rule.js';
import { sha256Hex } from '../storage/content-hash.js';
import { judgeMigration, migrationDrift, storeMigration, type MigrationSource, type MigrationToStore } from './register-migration.js';

export interface ContractFileToRegister {
  /** How messages name the file, e.g. `contracts/orders.v1.yaml`; its base name is kept in the pointer. */
  readonly path: string;
  readonly text: string;
}

export interface RegisterOptions {
  /** @default `_contracts/` */
  readonly prefix?: string;
  readonly loadOptions?: LoadOptions;
  /** Who registers, kept in the pointer. */
  readonly by?: string;
  /** Epoch milliseconds. */
  readonly now: number;
  /**
   * Where the migration documents are. Given (as `publish` does), the first version of a new major
   * of a registered dataset is refused without a complete one, and stored with it; not given
   * (`serve --contracts`, a library caller), none is asked for.
   */
  readonly migrations?: MigrationSource;
}

export interface RegisterOutcome {
  readonly file: string;
  readonly status: 'registered' | 'unchanged' | 'refused';
  readonly name?: string;
  readonly version?: string;
  /** The registered object. */
  readonly key?: string;
  /** One line: what happened, or why not. */
  readonly reason: string;
  /** The loader's problems with the file (errors when refused for them, else warnings). */
  readonly problems: readonly string[];
  /** The classification the verdict rests on: against the version in force, or (a new major) the previous major. */
  readonly diff?: { readonly against: string; readonly result: ContractDiff };
  /** The migration document stored with a new major's first version, e.g. `s3://lake/_contracts/orders/v2/2.0.0.migration.md`. */
  readonly migration?: string;
}

/** Compare-and-swap losers re-read and classify again; this many rounds means something keeps writing. */
const MAX_ROUNDS = 20;

/**
 * Registers one contract file, as Confluent's schema registry does a schema: the file is checked
 * against the version in force for its major with the classification `check-compat` uses, and
 * refused when it needs a bigger bump than it declares, rewrites a registered version with other
 * bytes, or starts a new major outside a file of its own (or, with `migrations`, without a
 * complete migration document, which is then stored beside it). An identical file is a no-op. The
 * version object is created once (a conditional create) and the pointer moved by compare-and-swap,
 * so concurrent publishers converge: a loser re-reads and is judged against the winner.
 */
export async function registerContract(store: ObjectStore, file: ContractFileToRegister, options: RegisterOptions): Promise<RegisterOutcome> {
  const { contract, problems } = parseContract(file.text, file.path, options.loadOptions);
  const shown = problems.map(formatProblem);
  if (!contract) return { file: file.path, status: 'refused', reason: 'the contract does not load', problems: shown };
  const prefix = options.prefix ?? DEFAULT_REGISTRY_PREFIX;
  const context: Registration = { store, prefix, file, contract, sha256: sha256Hex(file.text), problems: shown, options };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await readPointer(store, prefix, contract.name, contract.version.major);
    const judged = current ? await againstCurrent(context, current.pointer) : await asNewMajor(context);
    if ('status' in judged) return judged;
    // The document first: refused, it leaves no version object of the new major behind.
    const stored = judged.migration && (await storeMigration(store, prefix, contract, judged.migration));
    if (stored && 'refusal' in stored) return refuse(context, stored.refusal);
    const created = await createVersionObject(context);
    if (created) return created;
    const done = await movePointerTo(context, current, judged.diff, stored);
    if (done) return done;
  }
  throw new GateError('storage_failed', `${pointerKey(prefix, contract.name, contract.version.major)} kept changing while ${file.path} was registered; try again`);
}

/** Registers files one after another, in the order given (a v1 before its v2), each judged on its own. */
export async function registerContracts(store: ObjectStore, files: readonly ContractFileToRegister[], options: RegisterOptions): Promise<RegisterOutcome[]> {
  const outcomes: RegisterOutcome[] = [];
  for (const file of files) outcomes.push(await registerContract(store, file, options));
  return outcomes;
}

interface Registration {
  readonly store: ObjectStore;
  readonly prefix: string;
  readonly file: ContractFileToRegister;
  readonly contract: Contract;
  readonly sha256: string;
  readonly problems: readonly string[];
  readonly options: RegisterOptions;
}

type Judged = RegisterOutcome | { readonly diff?: RegisterOutcome['diff']; readonly migration?: MigrationToStore };

async function againstCurrent(context: Registration, pointer: RegistryPointer): Promise<Judged> {
  const { contract, store } = context;
  if (pointer.sha256 === '') return refuse(context, `${store.location}/${pointer.key} is not a registry pointer; the registry needs repair before anything is registered for ${contract.name} v${contract.version.major}`);
  if (pointer.version === contract.version.text) {
    return pointer.sha256 === context.sha256
      ? unchanged(context, pointer, `already registered as ${contract.name} ${contract.version.text}`)
      : refuse(context, `${contract.name} ${contract.version.text} is registered with other content; a registered version is never rewritten: bump the version`);
  }
  // Only below the version in force: a higher version's object may be a registration cut short.
  const earlier = declaredBump(parseVersion(pointer.version), contract.version) === 'version_decreased' ? await registeredAs(context, pointer) : undefined;
  if (earlier) return earlier;
  const registered = await readRegisteredText(store, pointer);
  if ('problem' in registered) return refuse(context, `the version in force cannot be read to compare against: ${registered.problem}`);
  const old = parseContract(registered.text, `${store.location}/${pointer.key}`, context.options.loadOptions).contract;
  if (!old) return refuse(context, `the version in force, ${store.location}/${pointer.key}, does not load; there is nothing to compare against`);
  const diff = { against: `${contract.name} ${old.version.text} (registered)`, result: judgeSuccessor(old, contract) };
  if (diff.result.ok) return { diff };
  return { ...refuse(context, refusalReason(contract, diff.result, pointer.version)), diff };
}

/** A version registered before, no longer in force: the same bytes are a no-op, others a rewrite. */
async function registeredAs(context: Registration, pointer: RegistryPointer): Promise<RegisterOutcome | undefined> {
  const { contract } = context;
  const bytes = await readWhole(context.store, versionKey(context.prefix, contract.name, contract.version.major, contract.version.text));
  if (!bytes) return undefined;
  if (sha256Hex(bytes) === context.sha256) return unchanged(context, pointer, `already registered as ${contract.name} ${contract.version.text} (a newer version is in force)`);
  return refuse(context, `${contract.name} ${contract.version.text} is registered with other content; a registered version is never rewritten: bump the version`);
}

/** The same bytes again are a no-op, unless the version came with a document and the local one is another. */
async function unchanged(context: Registration, pointer: RegistryPointer, reason: string): Promise<RegisterOutcome> {
  const { contract, options, prefix } = context;
  const stored = pointer.migration;
  if (!options.migrations || !stored || stored.key !== migrationKey(prefix, contract.name, contract.version.major, contract.version.text)) return outcome(context, 'unchanged', reason);
  const drift = await migrationDrift(options.migrations, context.file.path, contract, stored, context.store.location);
  return drift === undefined ? outcome(context, 'unchanged', reason) : refuse(context, drift);
}

/** A first version of a major: a new major of a known dataset must come in a file of its own. */
async function asNewMajor(context: Registration): Promise<Judged> {
  const { contract, prefix, store } = context;
  const majors = (await pointerListing(store, prefix, contract.name)).map((p) => Number(/\/v(\d+)\/[^/]+$/.exec(p.key)?.[1]));
  if (majors.length === 0) return {};
  const own = ownMajorFile(contract.name, contract.version.major);
  if (!isOwnMajorFile(contract.name, contract.version.major, context.file.path)) {
    return refuse(context, `${contract.name} v${majors.sort((a, b) => b - a).join(', v')} is registered: a new major version is a new file, ${own}, beside the old one`);
  }
  const previous = await readPointer(store, prefix, contract.name, contract.version.major - 1);
  const text = previous && (await readRegisteredText(store, previous.pointer));
  const old = text && 'text' in text ? parseContract(text.text, previous.pointer.key, context.options.loadOptions).contract : undefined;
  if (!old) return {};
  const diff = { against: `${contract.name} ${old.version.text} (the previous major, for information)`, result: judgeSuccessor(old, contract) };
  if (!context.options.migrations) return { diff };
  const judged = await judgeMigration(context.options.migrations, context.file.path, { old, next: contract, diff: diff.result, now: context.options.now });
  return 'refusal' in judged ? { ...refuse(context, judged.refusal), diff } : { diff, migration: judged.migration };
}

/** Undefined when created, or found with the same bytes (an interrupted or concurrent registration). */
async function createVersionObject(context: Registration): Promise<RegisterOutcome | undefined> {
  const { contract } = context;
  const key = versionKey(context.prefix, contract.name, contract.version.major, contract.version.text);
  try {
    await context.store.put(key, context.file.text, { ifNoneMatch: '*', contentType: 'application/yaml' });
    return undefined;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const bytes = await readWhole(context.store, key);
    if (bytes && sha256Hex(bytes) === context.sha256) return undefined;
    return refuse(context, `another publisher registered ${contract.name} ${contract.version.text} with other content at the same time; bump the version`);
  }
}

/** The registered outcome once the pointer moved; undefined when another publisher moved it first. */
async function movePointerTo(context: Registration, current: PointerRead | undefined, diff: RegisterOutcome['diff'], stored: RegisteredMigration | undefined): Promise<RegisterOutcome | undefined> {
  // A later version of the major keeps the document its first version came with.
  if (!(await movePointer(context, current?.etag, stored ?? current?.pointer.migration))) return undefined;
  const registered = outcome(context, 'registered', registeredReason(current?.pointer, diff), diff);
  return stored ? { ...registered, migration: `${context.store.location}/${stored.key}` } : registered;
}

/** False when another publisher moved the pointer first: the caller judges again against theirs. */
async function movePointer(context: Registration, etag: string | undefined, migration: RegisteredMigration | undefined): Promise<boolean> {
  const { contract, prefix } = context;
  const pointer: RegistryPointer = {
    format: 'contract-gate/registry-pointer@1',
    name: contract.name,
    major: contract.version.major,
    version: contract.version.text,
    key: versionKey(prefix, contract.name, contract.version.major, contract.version.text),
    sha256: context.sha256,
    file: context.file.path.split(/[\\/]/).pop() ?? context.file.path,
    registered_at: new Date(context.options.now).toISOString(),
    ...(context.options.by ? { registered_by: context.options.by } : {}),
    ...(migration ? { migration } : {}),
  };
  try {
    await context.store.put(pointerKey(prefix, contract.name, contract.version.major), `${JSON.stringify(pointer, null, 2)}\n`, { ...(etag ? { ifMatch: etag } : { ifNoneMatch: '*' }), contentType: 'application/json' });
    return true;
  } catch (error) {
    if (error instanceof GateError && error.code === 'precondition_failed') return false;
    throw error;
  }
}

function registeredReason(was: RegistryPointer | undefined, diff: RegisterOutcome['diff']): string {
  if (!was) return diff ? `a new major; ${diff.against}: ${formatVerdict(diff.result)}` : 'a new contract';
  return `was ${was.version}: ${diff ? formatVerdict(diff.result) : 'no diff'}`;
}

function outcome(context: Registration, status: RegisterOutcome['status'], reason: string, diff?: RegisterOutcome['diff']): RegisterOutcome {
  const { contract } = context;
  return {
    file: context.file.path,
    status,
    name: contract.name,
    version: contract.version.text,
    key: `${context.store.location}/${versionKey(context.prefix, contract.name, contract.version.major, contract.version.text)}`,
    reason,
    problems: context.problems,
    ...(diff ? { diff } : {}),
  };
}

function refuse(context: Registration, reason: string): RegisterOutcome {
  const { key: _key, ...rest } = outcome(context, 'refused', reason);
  return rest;
}

