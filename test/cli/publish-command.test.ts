import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePointer } from '../../lib/registry/registry-layout.js';
import { sha256Hex } from '../../lib/storage/content-hash.js';
import { readWhole } from '../../lib/storage/object-store.js';
import { applyEdits } from '../compat/contract-edits.js';
import { DEPRECATED_V1, fillSkeleton, V2, V2_DOCUMENT } from '../compat/migration-fixture.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';
import { runCaptured } from './run-captured.js';

const bucket = useLocalBucket('cg-publish-', { each: true });

/** A producer's contracts directory: v1 deprecated, v2 beside it, and (optionally) the migration document. */
function producer(document?: string): { contracts: string; v1: string; v2: string; doc: string } {
  const contracts = join(mkdtempSync(join(tmpdir(), 'cg-publish-repo-')), 'contracts');
  mkdirSync(join(contracts, 'migrations'), { recursive: true });
  const [v1, v2, doc] = [join(contracts, 'orders.v1.yaml'), join(contracts, 'orders.v2.yaml'), join(contracts, 'migrations', 'orders_v1_to_v2.md')];
  writeFileSync(v1, DEPRECATED_V1);
  writeFileSync(v2, V2);
  if (document !== undefined) writeFileSync(doc, document);
  return { contracts, v1, v2, doc };
}

/** Pinned inside the fixture's window: v1's sunset, 2027-01-31, is still ahead. */
const publish = (...args: string[]) => runCaptured('publish', ...args, '--to', 's3://lake', '--endpoint', bucket.endpoint, ...(args.includes('--now') ? [] : ['--now', '2026-12-01T00:00:00Z']));
const pointer = async (major: number) => parsePointer(new TextDecoder().decode(await readWhole(bucket.store, `_contracts/orders/v${major}/current.json`)));

describe('contract-gate publish of a new major', () => {
  it('exits 1 for orders.v2.yaml without its migration document, naming the file to write, and registers nothing of v2', async () => {
    const { v1, v2, doc } = producer();
    expect((await publish(v1)).code).toBe(0);
    const { code, stdout } = await publish(v2);
    expect(code).toBe(1);
    expect(stdout).toContain(`REFUSED     ${v2}: orders v2 is a new major and needs a migration document: write ${doc}, naming what changed, the window and the v1 sunset (start from: contract-gate diff ${v1} ${v2} --migration-skeleton ${doc})`);
    expect(await pointer(2)).toBeUndefined();
  });

  it('exits 0 for orders.v2.yaml with its migration document, stores it beside the version and records its SHA-256', async () => {
    const { contracts, v2, doc } = producer(V2_DOCUMENT);
    const { code, stdout } = await publish(contracts);
    expect(code).toBe(0);
    expect(stdout).toContain(`registered  orders 2.0.0 from ${v2} as s3://lake/_contracts/orders/v2/2.0.0.yaml`);
    expect(stdout).toContain('    its migration document: s3://lake/_contracts/orders/v2/2.0.0.migration.md');
    expect(new TextDecoder().decode(await readWhole(bucket.store, '_contracts/orders/v2/2.0.0.migration.md'))).toBe(readFileSync(doc, 'utf8'));
    expect((await pointer(2))?.migration).toEqual({ key: '_contracts/orders/v2/2.0.0.migration.md', sha256: sha256Hex(V2_DOCUMENT), file: 'orders_v1_to_v2.md' });
  });

  it('refuses the skeleton diff writes until its placeholders are filled, then takes it', async () => {
    const { contracts, v1, v2, doc } = producer();
    expect((await runCaptured('diff', v1, v2, '--migration-skeleton', doc)).code).toBe(0);
    const unfilled = await publish(contracts);
    expect(unfilled.code).toBe(1);
    expect(unfilled.stdout).toContain(`REFUSED     ${v2}: the migration document ${doc} of orders v2 is incomplete: `);
    expect(unfilled.stdout).toContain('4 TODO(migration) placeholders left to write');
    writeFileSync(doc, fillSkeleton(readFileSync(doc, 'utf8')));
    const filled = await publish(contracts);
    expect(filled.stdout).toContain('unchanged   orders 1.3.0');
    expect(filled.code).toBe(0);
  });

  it('refuses to publish a registered v2 again with another migration document, naming both and their SHA-256', async () => {
    const { contracts, doc } = producer(V2_DOCUMENT);
    expect((await publish(contracts)).code).toBe(0);
    const edited = V2_DOCUMENT.replace('stg_orders, ', 'stg_orders, fct_margin, ');
    writeFileSync(doc, edited);
    const { code, stdout } = await publish(contracts);
    expect(code).toBe(1);
    expect(stdout).toContain(`orders 2.0.0 is registered with the migration document s3://lake/_contracts/orders/v2/2.0.0.migration.md (SHA-256 ${sha256Hex(V2_DOCUMENT).slice(0, 12)}), which differs from ${doc} (SHA-256 ${sha256Hex(edited).slice(0, 12)}): a registered document is never rewritten: publish the same document, or bump the version`);
    writeFileSync(doc, V2_DOCUMENT);
    expect((await publish(contracts)).code).toBe(0);
  });

  it('takes the documents from --migrations, and asks none of a later minor of v2', async () => {
    const { contracts, v2, doc } = producer();
    const elsewhere = mkdtempSync(join(tmpdir(), 'cg-migrations-'));
    writeFileSync(join(elsewhere, 'orders_v1_to_v2.md'), V2_DOCUMENT);
    const first = await publish(contracts, '--migrations', elsewhere, '--format', 'json');
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as { outcomes: { version: string; migration?: string }[] }).outcomes.map((o) => [o.version, o.migration])).toEqual([['1.3.0', undefined], ['2.0.0', 's3://lake/_contracts/orders/v2/2.0.0.migration.md']]);
    rmSync(doc, { force: true });
    writeFileSync(v2, applyEdits(V2, [['version: 2.0.0', 'version: 2.1.0'], ['enum: [placed, paid, cancelled]', 'enum: [placed, paid, cancelled, refunded]']]));
    const { code, stdout } = await publish(v2);
    expect(stdout).toContain('registered  orders 2.1.0');
    expect(code).toBe(0);
    expect((await pointer(2))?.migration?.sha256).toBe(sha256Hex(V2_DOCUMENT));
  });
});
