import { createHash } from 'node:crypto';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from './emulator-fixture.js';

let fixture: EmulatorFixture;
beforeAll(async () => (fixture = await startEmulatorFixture()));
afterAll(() => fixture?.close());

const etagOf = (body: string) => `"${createHash('md5').update(body).digest('hex')}"`;
const OTHER = etagOf('something else');
const LONG_AGO = new Date('2000-01-01T00:00:00Z');
const LATER = new Date(Date.now() + 24 * 3600_000);

function head(key: string, conditions: Record<string, string | Date> = {}) {
  return fixture.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key, ...conditions }));
}

function get(key: string, conditions: Record<string, string | Date> = {}) {
  return fixture.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, ...conditions }));
}

function copy(from: string, to: string, conditions: Record<string, string | Date> = {}) {
  return fixture.client.send(new CopyObjectCommand({ Bucket: BUCKET, Key: to, CopySource: `${BUCKET}/${encodeURIComponent(from)}`, ...conditions }));
}

const status = (code: number) => ({ $metadata: { httpStatusCode: code } });

describe('conditional reads', () => {
  beforeAll(() => fixture.put('read/x', 'version one'));

  it('serves GET and HEAD whose If-Match names the current ETag, or *', async () => {
    expect((await fixture.read('read/x', { IfMatch: etagOf('version one') })).toString()).toBe('version one');
    expect((await head('read/x', { IfMatch: '*' })).ETag).toBe(etagOf('version one'));
  });

  it('answers 412 PreconditionFailed to GET and HEAD whose If-Match names another ETag', async () => {
    await expect(get('read/x', { IfMatch: OTHER })).rejects.toMatchObject({ name: 'PreconditionFailed', ...status(412) });
    await expect(head('read/x', { IfMatch: OTHER })).rejects.toMatchObject(status(412));
  });

  it('answers 404 NoSuchKey, not 412, for If-Match on an absent key', async () => {
    await expect(get('read/absent', { IfMatch: OTHER })).rejects.toMatchObject({ name: 'NoSuchKey', ...status(404) });
    await expect(head('read/absent', { IfMatch: '*' })).rejects.toMatchObject(status(404));
  });

  it('answers 304 to GET and HEAD whose If-None-Match names the current ETag, and serves them otherwise', async () => {
    await expect(get('read/x', { IfNoneMatch: etagOf('version one') })).rejects.toMatchObject(status(304));
    await expect(head('read/x', { IfNoneMatch: '*' })).rejects.toMatchObject(status(304));
    expect((await get('read/x', { IfNoneMatch: OTHER })).ETag).toBe(etagOf('version one'));
  });

  it('follows RFC 7232: If-Match decides over If-Unmodified-Since, If-None-Match over If-Modified-Since', async () => {
    expect((await head('read/x', { IfMatch: etagOf('version one'), IfUnmodifiedSince: LONG_AGO })).ETag).toBeDefined();
    await expect(head('read/x', { IfUnmodifiedSince: LONG_AGO })).rejects.toMatchObject(status(412));
    expect((await head('read/x', { IfNoneMatch: OTHER, IfModifiedSince: LATER })).ETag).toBeDefined();
    await expect(head('read/x', { IfModifiedSince: LATER })).rejects.toMatchObject(status(304));
    expect((await head('read/x', { IfModifiedSince: LONG_AGO })).ETag).toBeDefined();
  });

  it('checks If-Match on a ranged GET, and serves the range when it holds', async () => {
    await fixture.put('read/range', '0123456789');
    expect((await fixture.read('read/range', { Range: 'bytes=2-4', IfMatch: etagOf('0123456789') })).toString()).toBe('234');
    expect((await fixture.read('read/range', { Range: 'bytes=0-0' })).toString()).toBe('0');
    await expect(fixture.read('read/range', { Range: 'bytes=2-4', IfMatch: OTHER })).rejects.toMatchObject(status(412));
  });

  it('never serves a read whose If-Match named the bytes another write replaced', async () => {
    const bodies = ['a'.repeat(100_000), 'b'.repeat(100_000)];
    await fixture.put('read/race', bodies[0]!);
    const reads = Array.from({ length: 20 }, () => fixture.read('read/race', { IfMatch: etagOf(bodies[0]!) }).then((bytes) => bytes.toString(), () => 'refused'));
    const writes = Array.from({ length: 5 }, (_, i) => fixture.put('read/race', bodies[(i + 1) % 2]!));
    const seen = await Promise.all(reads);
    await Promise.all(writes);
    for (const body of seen) expect(body === 'refused' || body === bodies[0]).toBe(true);
  });
});

describe('conditional deletes', () => {
  const del = (key: string, IfMatch?: string) => fixture.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key, IfMatch }));

  it('deletes when If-Match names the current ETag', async () => {
    await fixture.put('del/match', 'v1');
    await del('del/match', etagOf('v1'));
    await expect(fixture.read('del/match')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('refuses with 412 when If-Match names another ETag, and keeps the object', async () => {
    await fixture.put('del/stale', 'v2');
    await expect(del('del/stale', etagOf('v1'))).rejects.toMatchObject({ name: 'PreconditionFailed', ...status(412) });
    expect((await fixture.read('del/stale')).toString()).toBe('v2');
  });

  it('answers 404 NoSuchKey to If-Match on an absent key, and 204 to a plain delete of one', async () => {
    await expect(del('del/absent', '*')).rejects.toMatchObject({ name: 'NoSuchKey', ...status(404) });
    await expect(del('del/absent')).resolves.toMatchObject(status(204));
  });
});

describe('conditional copies', () => {
  beforeAll(() => fixture.put('copy/source', 'source v1'));

  it('copies when x-amz-copy-source-if-match names the source ETag, and refuses with 412 when not', async () => {
    await copy('copy/source', 'copy/ok', { CopySourceIfMatch: etagOf('source v1') });
    expect((await fixture.read('copy/ok')).toString()).toBe('source v1');
    await expect(copy('copy/source', 'copy/refused', { CopySourceIfMatch: OTHER })).rejects.toMatchObject({ name: 'PreconditionFailed', ...status(412) });
    await expect(fixture.read('copy/refused')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('refuses with 412 when x-amz-copy-source-if-none-match names the source ETag', async () => {
    await expect(copy('copy/source', 'copy/none', { CopySourceIfNoneMatch: etagOf('source v1') })).rejects.toMatchObject(status(412));
    await copy('copy/source', 'copy/none', { CopySourceIfNoneMatch: OTHER });
    expect((await fixture.read('copy/none')).toString()).toBe('source v1');
  });

  it('answers NoSuchKey for a condition on an absent source', async () => {
    await expect(copy('copy/absent', 'copy/t', { CopySourceIfMatch: OTHER })).rejects.toMatchObject({ name: 'NoSuchKey', ...status(404) });
  });

  it('still checks If-Match and If-None-Match on the target alongside the source condition', async () => {
    await fixture.put('copy/target', 'target v1');
    const both = { CopySourceIfMatch: etagOf('source v1') };
    await expect(copy('copy/source', 'copy/target', { ...both, IfNoneMatch: '*' })).rejects.toMatchObject(status(412));
    await expect(copy('copy/source', 'copy/target', { ...both, IfMatch: OTHER })).rejects.toMatchObject(status(412));
    await copy('copy/source', 'copy/target', { ...both, IfMatch: etagOf('target v1') });
    expect((await fixture.read('copy/target')).toString()).toBe('source v1');
  });

  it('copies only the source version the condition named, while the source is rewritten', async () => {
    const [v1, v2] = ['one '.repeat(50_000), 'two '.repeat(50_000)];
    await fixture.put('copy/moving', v1);
    const copies = Array.from({ length: 16 }, (_, i) => copy('copy/moving', `copy/pinned-${i}`, { CopySourceIfMatch: etagOf(v1) }).then(() => i, () => undefined));
    const rewrite = fixture.put('copy/moving', v2);
    const landed = (await Promise.all(copies)).filter((i) => i !== undefined);
    await rewrite;
    for (const i of landed) expect((await fixture.read(`copy/pinned-${i}`)).toString() === v1, `copy ${i}`).toBe(true);
  });

  it('copies a to b and b to a at once without deadlock', async () => {
    await Promise.all([fixture.put('copy/ab-a', 'A'), fixture.put('copy/ab-b', 'B')]);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? copy('copy/ab-a', 'copy/ab-b') : copy('copy/ab-b', 'copy/ab-a'))));
    expect(['A', 'B']).toContain((await fixture.read('copy/ab-a')).toString());
  });
});
