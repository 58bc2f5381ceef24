import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { GateFunction } from '../../lib/deploy/gate-function.js';
import { inputsFile } from '../../lib/deploy/handler-bundles.js';
import { prebuiltBundle } from '../../lib/deploy/prebuilt-bundle.js';

const ENTRY = 'lambdas/probe/handler.ts';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project root with a built probe bundle: as installed (no sources), or as a clone. */
function project(options: { sources: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'cg-prebuilt-'));
  dirs.push(root);
  mkdirSync(join(root, 'dist/bundles/handlers'), { recursive: true });
  mkdirSync(join(root, 'contracts'));
  writeFileSync(join(root, 'contracts/orders.v1.yaml'), 'name: orders\n');
  writeFileSync(join(root, 'contracts/contract.schema.json'), '{}');
  if (options.sources) {
    mkdirSync(join(root, 'lambdas/probe'), { recursive: true });
    writeFileSync(join(root, ENTRY), 'export const handler = 1;\n');
    utimesSync(join(root, ENTRY), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    writeFileSync(join(root, inputsFile('probe')), JSON.stringify([ENTRY]));
  }
  writeFileSync(join(root, 'dist/bundles/handlers/probe.mjs'), 'export const handler = async () => ({});\n');
  return root;
}

describe('the prebuilt bundle of a handler', () => {
  it('is the code of an installed package, which has no sources', () => {
    const root = project({ sources: false });
    expect(prebuiltBundle(root, ENTRY)).toEqual({ kind: 'fresh', dir: join(root, 'dist/bundles/handlers'), handler: 'probe.handler' });
  });

  it('is used in a clone while no input changed since the build, and not once one did', () => {
    const root = project({ sources: true });
    expect(prebuiltBundle(root, ENTRY).kind).toBe('fresh');
    utimesSync(join(root, ENTRY), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(prebuiltBundle(root, ENTRY).kind).toBe('stale');
  });

  it('is missing for a handler the build does not know, and for a package without its bundles', () => {
    const root = project({ sources: false });
    rmSync(join(root, 'dist/bundles'), { recursive: true });
    expect(prebuiltBundle(root, ENTRY).kind).toBe('missing');
    expect(prebuiltBundle(root, 'lambdas/other/handler.ts').kind).toBe('missing');
  });

  it('deploys as a plain function from the handlers\' code, named by its file, the contracts staged beside it outside dist/', () => {
    const root = project({ sources: false });
    const outdir = mkdtempSync(join(tmpdir(), 'cg-prebuilt-out-'));
    dirs.push(outdir);
    const app = new App({ outdir });
    const gate = new GateFunction(new Stack(app, 'S'), 'Probe', {
      functionName: 'probe', description: 'probe', entry: ENTRY, memorySize: 256, timeout: Duration.minutes(1), logRetention: RetentionDays.ONE_DAY, projectRoot: root,
    });
    app.synth();
    const asset = gate.function.node.findAll().map((c) => (c as { assetPath?: string }).assetPath).find((p) => p !== undefined)!;
    const staged = join(outdir, asset);
    expect(readdirSync(staged).sort()).toEqual(['contracts', 'probe.mjs']);
    expect(readdirSync(join(staged, 'contracts'))).toEqual(['orders.v1.yaml']);
    expect(readFileSync(join(staged, 'probe.mjs'), 'utf8')).toBe(readFileSync(join(root, 'dist/bundles/handlers/probe.mjs'), 'utf8'));
    expect(readdirSync(join(root, 'dist/bundles/handlers'))).toEqual(['probe.mjs']);
    expect((gate.function.node.defaultChild as CfnFunction).handler).toBe('probe.handler');
  });
});
