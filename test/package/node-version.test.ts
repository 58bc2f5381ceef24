import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import { BUNDLE_SETTINGS } from '../../lib/deploy/handler-bundles.js';

const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };
const major = (version: string) => Number(/\d+/.exec(version)![0]);

describe('the Node the package, its tests and its functions run on', () => {
  it('is one major: the engines floor, the pinned node the scripts run on, and the bundles\' target', () => {
    const pinned = major(manifest.devDependencies.node!);
    expect(manifest.engines.node).toBe(`>=${pinned}.0.0`);
    expect(BUNDLE_SETTINGS.target).toBe(`node${pinned}`);
  });

  it('is the Node this test runs on: npm test puts the pinned node first on the PATH', () => {
    expect(major(process.versions.node)).toBe(major(manifest.devDependencies.node!));
  });
});
