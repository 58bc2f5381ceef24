import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { formatRegistration } from '../registry/format-registration.js';
import { registerContracts } from '../registry/register-contract.js';
import type { MigrationSource } from '../registry/register-migration.js';
import { DEFAULT_REGISTRY_PREFIX } from '../registry/registry-layout.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { readContractPaths } from '../storage/contract-paths.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { COMMAND_HELP, PUBLISH_USAGE } from './usage.js';

/**
 * `publish`: what a producer's CI runs on merge. Registers each contract file on the gate's
 * bucket; the gate enforces it on the next drop, with no deploy. Exit 1 when any file is refused.
 */
export async function publishCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.publish.options });
  if (!values.to) throw new GateError('bad_arguments', `--to s3://<bucket> is required\nusage: ${PUBLISH_USAGE}`);
  if (values.format !== 'text' && values.format !== 'json') throw new GateError('bad_arguments', `--format must be text or json, not "${values.format}"`);
  const { bucket, prefix } = registryTarget(values.to);
  const loadOptions = loadOptionsFrom(values);
  const files = await readContractPaths(positionals.length > 0 ? positionals : ['contracts']);
  const store = s3ObjectStore({ client: createS3Client({ endpoint: values.endpoint }), bucket });
  const migrations = migrationFiles(values.migrations);
  const outcomes = await registerContracts(store, files, { prefix, loadOptions, now: parseNow(values.now), migrations, ...(values.by ? { by: values.by } : {}) });
  io.stdout(values.format === 'json' ? `${JSON.stringify({ registry: `${store.location}/${prefix}`, outcomes }, null, 2)}\n` : formatRegistration(outcomes));
  return outcomes.some((o) => o.status === 'refused') ? EXIT.violated : EXIT.ok;
}

/** A new major's document: in `dir` when given, else in `migrations/` beside its contract file. */
export function migrationFiles(dir: string | undefined): MigrationSource {
  return async (contractPath, fileName) => {
    const path = join(dir ?? join(dirname(contractPath), 'migrations'), fileName);
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new GateError('path_not_found', `${path}: cannot read the migration document: ${error.message}`, { cause: error, context: { path } });
    });
    return text === undefined ? { path } : { path, text };
  };
}

/** `s3://bucket` is the default registry prefix; `s3://bucket/<prefix>/` names another. */
export function registryTarget(to: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(to);
  if (!match) throw new GateError('bad_arguments', `--to must be s3://<bucket>[/<registry prefix>/], not "${to}"`);
  const explicit = match[2] ?? '';
  return { bucket: match[1]!, prefix: explicit === '' ? DEFAULT_REGISTRY_PREFIX : explicit.replace(/\/?$/, '/') };
}
