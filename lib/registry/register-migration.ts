import type { ContractDiff } from '../compat/contract-diff.js';
import { migrationFileName, migrationRefusal, type MigrationFile } from '../compat/migration-document.js';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { sha256Hex } from '../storage/content-hash.js';
import { migrationKey, type RegisteredMigration } from './registry-layout.js';
import { ownMajorFile } from './successor-rule.js';

/**
 * Finds the migration document of a contract file: given the file's path and the document's name
 * (`orders_v1_to_v2.md`), where it is and its text, or only where it should be. A port, so the
 * registry reads no files itself: `publish` looks in `migrations/` beside the contract.
 */
export type MigrationSource = (contractPath: string, fileName: string) => Promise<MigrationFile>;

/** A document that passed, to store with the version. */
export interface MigrationToStore {
  readonly path: string;
  readonly text: string;
}

/** The first version of a new major of a registered dataset: its document, or why it is refused. */
export async function judgeMigration(source: MigrationSource, contractPath: string, input: { old: Contract; next: Contract; diff: ContractDiff; now: number }): Promise<{ refusal: string } | { migration: MigrationToStore }> {
  const { old, next } = input;
  const file = await source(contractPath, migrationFileName(next.name, old.version.major, next.version.major));
  // The old major's file, where a repository keeps it: beside the new one.
  const oldPath = contractPath.replace(/[^\\/]*$/, ownMajorFile(next.name, old.version.major));
  const refusal = migrationRefusal(input, file, `contract-gate diff ${oldPath} ${contractPath} --migration-skeleton ${file.path}`);
  if (refusal !== undefined) return { refusal };
  return { migration: { path: file.path, text: file.text ?? '' } };
}

/**
 * A version registered with a document, published again: the local document must be the one
 * stored, or the repository and the registry tell consumers different plans. No local document
 * (deleted once published) is no conflict. Undefined when they agree.
 */
export async function migrationDrift(source: MigrationSource, contractPath: string, next: Contract, stored: RegisteredMigration, location: string): Promise<string | undefined> {
  const local = await source(contractPath, stored.file);
  if (local.text === undefined) return undefined;
  const sha256 = sha256Hex(local.text);
  if (sha256 === stored.sha256) return undefined;
  return `${next.name} ${next.version.text} is registered with the migration document ${location}/${stored.key} (SHA-256 ${stored.sha256.slice(0, 12)}), which differs from ${local.path} (SHA-256 ${sha256.slice(0, 12)}): a registered document is never rewritten: publish the same document, or bump the version`;
}

/**
 * Stores the document beside the version's object, write-once as that is: the same bytes again
 * (a registration cut short, retried) are taken; other bytes are refused, as a version is.
 */
export async function storeMigration(store: ObjectStore, prefix: string, next: Contract, migration: MigrationToStore): Promise<RegisteredMigration | { refusal: string }> {
  const key = migrationKey(prefix, next.name, next.version.major, next.version.text);
  const sha256 = sha256Hex(migration.text);
  const file = migration.path.split(/[\\/]/).pop() ?? migration.path;
  try {
    await store.put(key, migration.text, { ifNoneMatch: '*', contentType: 'text/markdown; charset=utf-8' });
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const bytes = await readWhole(store, key);
    if (!bytes || sha256Hex(bytes) !== sha256) {
      return { refusal: `${store.location}/${key} holds another migration document for ${next.name} ${next.version.text} (a publish of it cut short, or a concurrent one): publish that document again, or bump the version` };
    }
  }
  return { key, sha256, file };
}
