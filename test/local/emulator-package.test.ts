import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import { GateError } from '../../lib/errors.js';
import { EMULATOR_PACKAGE, EMULATOR_VERSION, requireEmulatorPackage } from '../../lib/local/emulator-package.js';

const nowhere = mkdtempSync(join(tmpdir(), 'cg-no-emulator-'));
afterAll(() => rmSync(nowhere, { recursive: true, force: true }));

describe('the S3 emulator package', () => {
  it('is an optional peer dependency pinned, as a dev dependency too, at the version the emulator is written against', () => {
    const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(manifest.dependencies![EMULATOR_PACKAGE]).toBeUndefined();
    expect(manifest.peerDependencies![EMULATOR_PACKAGE]).toBe(EMULATOR_VERSION);
    expect(manifest.peerDependenciesMeta![EMULATOR_PACKAGE]).toEqual({ optional: true });
    expect(manifest.devDependencies![EMULATOR_PACKAGE]).toBe(EMULATOR_VERSION);
  });

  it('is found where it is installed', () => {
    expect(() => requireEmulatorPackage('serve')).not.toThrow();
  });

  it('when absent, fails naming the command, the package and the exact npm install to run', () => {
    const from = pathToFileURL(join(nowhere, 'cli.js')).href;
    let caught: unknown;
    try {
      requireEmulatorPackage('contract-gate serve', from);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GateError);
    expect((caught as GateError).code).toBe('unsupported');
    expect((caught as GateError).message).toBe(
      `contract-gate serve needs a local S3 endpoint, and so ${EMULATOR_PACKAGE}, an optional peer dependency of contract-gate that is not installed. ` +
        `Install it beside contract-gate: npm install --save-dev ${EMULATOR_PACKAGE}@${EMULATOR_VERSION}`,
    );
  });
});
