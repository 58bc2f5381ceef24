import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Contract } from '../contract/model.js';
import { describeError, GateError } from '../errors.js';
import { formatMismatch, SNIFF_BYTES } from '../formats/format-sniff.js';
import { readPointer } from '../registry/registry-objects.js';
import { pointerKey } from '../registry/registry-layout.js';
import type { ObjectStore } from '../storage/object-store.js';
import { storageProblem } from '../storage/storage-problem.js';
import type { CliIo } from './cli-io.js';

// What `drop` makes sure of before it uploads a byte: a drop the gate can only refuse or
// quarantine for reasons known up front is stopped while there is nothing to clean up.

/** `--registry none`: a gate deployed with bundled contracts keeps no registry to ask. */
export const NO_REGISTRY = 'none';

/** Each data file must start like the contract's `produces.format`; the first ones that do not are named. */
export async function checkDropFormats(dir: string, files: readonly { readonly relative: string }[], contract: Contract, contractFile: string): Promise<void> {
  const wrong: string[] = [];
  for (const file of files) {
    const path = join(dir, file.relative);
    const reason = formatMismatch(contract.produces.format, await readHead(path));
    if (reason !== undefined) wrong.push(`${path}: ${reason}`);
  }
  if (wrong.length === 0) return;
  const listed = wrong.slice(0, 3).join('\n  ') + (wrong.length > 3 ? `\n  … and ${wrong.length - 3} more files like these` : '');
  const one = wrong.length === 1;
  const head = `${one ? '1 file' : `${wrong.length} files`} of ${files.length} in ${dir} ${one ? 'is' : 'are'} not in the format ${contractFile} declares (produces.format: ${contract.produces.format}), so the gate could not read ${one ? 'it' : 'them'}. Nothing was uploaded`;
  throw new GateError('bad_arguments', `${head}\n  ${listed}`);
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(new Uint8Array(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface RegistryCheck {
  readonly store: ObjectStore;
  readonly bucket: string;
  /** The gate's registry prefix, e.g. `_contracts/`, or NO_REGISTRY. */
  readonly registry: string;
  readonly contract: Contract;
  readonly contractFile: string;
  readonly endpoint?: string;
}

/**
 * The gate judges a drop by the contract registered on its bucket for the dataset and major
 * (`serve` registers its --contracts there at start; a deployment reads it unless it ships bundled
 * contracts), and refuses one with none unread (`no_contract`). So a major with no registered
 * contract stops the drop here, saying how to register it. A caller that may not read the
 * registry (a producer of a gate with bundled contracts has no grant there) is told the check
 * was skipped; a registered version other than the file's is said, as the gate will use it.
 */
export async function checkRegistered(check: RegistryCheck, io: CliIo): Promise<void> {
  const { store, contract, registry } = check;
  if (registry === NO_REGISTRY) return;
  const key = pointerKey(registry, contract.name, contract.version.major);
  const registered = await readPointer(store, registry, contract.name, contract.version.major).catch((error: unknown) => {
    if (storageProblem(error)?.kind !== 'access_denied') {
      throw new GateError('storage_failed', `cannot read the contract registry at s3://${check.bucket}/${key}: ${describeError(error)}. Nothing was uploaded`, { cause: error });
    }
    io.stderr(`note: may not read s3://${check.bucket}/${key} (${describeError(error)}), so whether the gate knows ${contract.name} v${contract.version.major} is not checked before the upload\n`);
    return null;
  });
  if (registered === null) return;
  if (registered === undefined) throw unregistered(check, key);
  if (registered.problem !== undefined) {
    io.stderr(`note: ${registered.problem}: the gate does not enforce that pointer, so it judges this drop by its last good version of ${contract.name} v${contract.version.major}, if any (run contract-gate publish to replace the pointer)\n`);
    return;
  }
  if (registered.pointer.version === contract.version.text) return;
  io.stderr(`note: the gate enforces ${contract.name} ${registered.pointer.version}, the version registered on the bucket; ${contract.version.text} in your file is not registered (run contract-gate publish first)\n`);
}

function unregistered(check: RegistryCheck, key: string): GateError {
  const { contract } = check;
  const to = `s3://${check.bucket}${check.registry === '_contracts/' ? '' : `/${check.registry}`}`;
  const publish = ['contract-gate publish', check.contractFile, '--to', to, ...(check.endpoint ? ['--endpoint', check.endpoint] : [])].join(' ');
  return new GateError(
    'not_found',
    `no contract is registered for ${contract.name} v${contract.version.major} on s3://${check.bucket} (s3://${check.bucket}/${key} does not exist), so the gate would refuse this drop unread (no_contract). Nothing was uploaded. Register the contract, then drop again:\n` +
      `  ${publish}\n` +
      `(a gate deployed with bundled contracts keeps no registry: for one, pass --registry ${NO_REGISTRY})`,
    { context: { key } },
  );
}
