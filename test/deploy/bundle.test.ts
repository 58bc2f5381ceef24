import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import { assetDirectory, handlerModule, synthGate, type GateSynth } from './synth-gate.js';

let gate: GateSynth;

beforeAll(async () => {
  gate = await synthGate('dev');
});
afterAll(() => gate?.dispose());

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).sort();
}

function describeSize(name: string, dir: string): { total: number; zipped: number } {
  const sizes = files(dir).map((f) => {
    const bytes = readFileSync(join(dir, f));
    return { f, size: bytes.length, zipped: deflateRawSync(bytes, { level: 9 }).length };
  });
  const total = sizes.reduce((n, s) => n + s.size, 0);
  const zipped = sizes.reduce((n, s) => n + s.zipped, 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`${name} bundle: ${sizes.map((s) => `${s.f} ${kb(s.size)}`).join(', ')}; total ${kb(total)}, about ${kb(zipped)} zipped`);
  return { total, zipped };
}

describe.each(['validate', 'probe'] as const)('the %s bundle', (name) => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = assetDirectory(gate, gate.logicalId(gate.stack.gate[name].function));
    file = handlerModule(gate, gate.logicalId(gate.stack.gate[name].function));
  });

  it('is its handler\'s ESM file among the code every handler shares, the worker\'s entry and the contracts beside it, and no source map', () => {
    expect(file).toBe(`${name}.mjs`);
    // The validate function checks with worker threads too: their entry is bundled beside it.
    expect(files(dir)).toEqual(expect.arrayContaining(['contracts/orders.v1.yaml', file, 'slice-worker.mjs']));
    expect(files(dir).filter((f) => !f.endsWith('.mjs') && !f.startsWith('contracts/'))).toEqual([]);
    expect(readFileSync(join(dir, 'contracts/orders.v1.yaml'), 'utf8')).toBe(readFileSync(join(PROJECT_ROOT, 'contracts/orders.v1.yaml'), 'utf8'));
  });

  it('defines require for bundled CommonJS', () => {
    const code = readFileSync(join(dir, file), 'utf8');
    expect(code.startsWith("import { createRequire } from 'module'; const require = createRequire(import.meta.url);")).toBe(true);
  });

  it('loads with no node_modules in reach: the pinned AWS SDK is inside, not the runtime\'s', () => {
    // The assembly lives under the system temp directory, far from the project's node_modules.
    expect(relative(PROJECT_ROOT, dir).startsWith('..')).toBe(true);
    const script = `const m = await import(${JSON.stringify(pathToFileURL(join(dir, file)).href)}); console.log(typeof m.handler);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(out.trim()).toBe('function');
  });

  it('runs without --enable-source-maps, which has no map to read', () => {
    const variables = gate.template.toJSON().Resources[gate.logicalId(gate.stack.gate[name].function)].Properties.Environment?.Variables as Record<string, unknown> | undefined;
    expect(variables?.NODE_OPTIONS).toBeUndefined();
  });

  it('has its size recorded', () => {
    const { total } = describeSize(name, dir);
    expect(total).toBeGreaterThan(0);
  });
});
