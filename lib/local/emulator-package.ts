import { createRequire } from 'node:module';
import { GateError } from '../errors.js';

/**
 * The S3 emulator under the local endpoint. It is an optional peer dependency, not a dependency:
 * it brings two thirds of the packages an install would otherwise hold, and only `serve` (and
 * `probe`/`status`/`history` of a serve directory) need it, never the construct or the handlers.
 */
export const EMULATOR_PACKAGE = '@20minutes/s3rver';

/** The version the emulator's patches (lib/local/) are written against; package.json pins it as peer and dev dependency. */
export const EMULATOR_VERSION = '4.0.4';

/**
 * Fails with what to install when the emulator cannot be found from `from` (this module; the
 * emulator's child resolves it from the same directory). Checked before anything is started or
 * written, so a missing package is the whole message rather than a child's stack trace.
 */
export function requireEmulatorPackage(what: string, from: string = import.meta.url): void {
  try {
    createRequire(from).resolve(EMULATOR_PACKAGE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new GateError(
      'unsupported',
      `${what} needs a local S3 endpoint, and so ${EMULATOR_PACKAGE}, an optional peer dependency of contract-gate that is not installed. ` +
        `Install it beside contract-gate: npm install --save-dev ${EMULATOR_PACKAGE}@${EMULATOR_VERSION}`,
      { cause: error, context: { package: EMULATOR_PACKAGE, version: EMULATOR_VERSION } },
    );
  }
}
