import { writeFile } from 'node:fs/promises';
import { describeError, GateError } from '../errors.js';

/** `--out <file>`: the whole text, or an error naming the file and why it could not be written. */
export async function writeOut(path: string, text: string, what: string): Promise<void> {
  await writeFile(path, text).catch((error: unknown) => {
    throw new GateError('path_not_found', `${path}: cannot write the ${what}: ${describeError(error)} (does its directory exist, and may it be written?)`, { cause: error, context: { path } });
  });
}
