import { createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GateError } from '../../lib/errors.js';
import { byteSourceFromBytes, type ByteSource } from '../../lib/formats/byte-source.js';
import { openCsvFile } from '../../lib/formats/csv-file.js';
import { openJsonLinesFile } from '../../lib/formats/jsonl-file.js';
import { UnreadableError } from '../../lib/formats/table-file.js';
import { contractFrom, counts, memoryFile, validate } from '../fixtures/partition.js';
import { collectBatches, columnValues, recordingSource } from '../fixtures/table-files.js';

const gzip = (text: string | Uint8Array) => new Uint8Array(gzipSync(text));
const csvOf = (bytes: Uint8Array, options = {}) => openCsvFile(byteSourceFromBytes(bytes), options);
const jsonlOf = (bytes: Uint8Array, options = {}) => openJsonLinesFile(byteSourceFromBytes(bytes), options);

const CSV = 'id,text\n1,"a\r\nb"\n2,"€uro, ""q"""\n3,日本\n4,\n';
const JSONL = '{"name":"Zoë"}\r\n\n{"name":"東京 🎉"}\r\n{"name":null}';

describe('gzip-compressed CSV and JSON Lines', () => {
  it('reads a .csv.gz like the plain file, whatever the chunk size, across multi-byte characters and quoted newlines', async () => {
    for (let chunkBytes = 1; chunkBytes <= 9; chunkBytes++) {
      const batches = await collectBatches(csvOf(gzip(CSV), { chunkBytes, batchRows: 2 }), ['id', 'text']);
      expect(batches.flatMap((b) => Array.from(b.columns.get('text')!))).toEqual(['a\r\nb', '€uro, "q"', '日本', null]);
      expect(batches.map((b) => b.rowStart)).toEqual([0, 2]);
    }
  });

  it('reads a .jsonl.gz like the plain file, whatever the chunk size', async () => {
    for (let chunkBytes = 1; chunkBytes <= 9; chunkBytes++) {
      expect(await columnValues(jsonlOf(gzip(JSONL), { chunkBytes }), 'name')).toEqual(['Zoë', '東京 🎉', null]);
    }
  });

  it('reads the header of a gzip-compressed CSV', async () => {
    await expect(csvOf(gzip('\ufeffid,name\n1,a\n')).schema()).resolves.toEqual({ kind: 'text', columns: ['id', 'name'] });
  });

  it('reads concatenated gzip members as one file, as cat a.gz b.gz makes', async () => {
    const bytes = Buffer.concat([gzip('n\n1\n2\n'), gzip('3\n4\n')]);
    expect(await columnValues(csvOf(new Uint8Array(bytes), { chunkBytes: 5 }), 'n')).toEqual(['1', '2', '3', '4']);
  });

  it('reads the compressed bytes in ranged slices of at most chunkBytes, never whole', async () => {
    const text = `a,b\n${Array.from({ length: 20_000 }, (_, i) => `${i},v${(i * 7919) % 100_003}`).join('\n')}\n`;
    const compressed = gzip(text);
    const source = recordingSource(compressed);
    const values = await columnValues(openCsvFile(source, { chunkBytes: 1000 }), 'a');
    expect(values).toHaveLength(20_000);
    expect(values[19_999]).toBe('19999');
    expect(Math.max(...source.reads)).toBe(1000);
    expect(source.reads.reduce((sum, n) => sum + n, 0)).toBe(compressed.byteLength);
  });

  it('reads only the start of a big gzip-compressed CSV for its header', async () => {
    // Values that barely compress, so the file is many chunks long.
    const compressed = gzip(`a,b\n${Array.from({ length: 100_000 }, (_, i) => `${i},${((i * 2_654_435_761) % 2 ** 32).toString(36)}`).join('\n')}\n`);
    const source = recordingSource(compressed);
    await expect(openCsvFile(source, { chunkBytes: 1024 }).schema()).resolves.toEqual({ kind: 'text', columns: ['a', 'b'] });
    expect(source.reads.reduce((sum, n) => sum + n, 0)).toBeLessThan(compressed.byteLength / 10);
  });

  it('reports a truncated gzip file as unreadable, saying it ends early', async () => {
    const whole = gzip(CSV.repeat(50));
    const file = csvOf(whole.subarray(0, whole.byteLength - 20));
    await expect(collectBatches(file, ['id'])).rejects.toThrow(/^the gzip data ends early \(zlib: unexpected end of file\): the file is truncated; upload it again whole$/);
  });

  it('reports a damaged gzip file as unreadable, whether the damage is in the data or the checksum', async () => {
    const whole = gzip(CSV.repeat(50));
    const dataFlipped = Uint8Array.from(whole, (byte, i) => (i === 40 ? byte ^ 0xff : byte));
    const crcFlipped = Uint8Array.from(whole, (byte, i) => (i === whole.byteLength - 6 ? byte ^ 0xff : byte));
    await expect(collectBatches(csvOf(dataFlipped), ['id'])).rejects.toThrow(/^the gzip data (is corrupt|fails its checksum) \(zlib: /);
    await expect(collectBatches(csvOf(crcFlipped), ['id'])).rejects.toThrow(/^the gzip data fails its checksum \(zlib: incorrect data check\): the file is damaged/);
  });

  it('reports bytes appended after the gzip data as unreadable rather than ignoring them', async () => {
    const bytes = new Uint8Array(Buffer.concat([gzip('n\n1\n'), Buffer.from('trailing junk')]));
    await expect(collectBatches(csvOf(bytes), ['n'])).rejects.toThrow(/^the gzip data is corrupt \(zlib: incorrect header check\): it is not one gzip stream, or it is damaged or has bytes appended/);
  });

  it('lets a storage failure through as it is, not as an unreadable file', async () => {
    const compressed = gzip(CSV.repeat(100));
    const failing: ByteSource = {
      byteLength: compressed.byteLength,
      slice: (start, end) => {
        if (start > 0) throw new GateError('storage_failed', 'connection reset');
        return byteSourceFromBytes(compressed).slice(start, end);
      },
    };
    await expect(collectBatches(openJsonLinesFile(failing, { chunkBytes: 64 }), ['a'])).rejects.toThrow(new GateError('storage_failed', 'connection reset'));
  });

  it.each([
    ['bzip2', [...Buffer.from('BZh91AY&SY'), 0, 0], /compressed with bzip2/],
    ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 0, 0, 0], /compressed with xz/],
    ['zip', [0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0, 0], /compressed with a zip archive/],
  ])('refuses a %s-compressed file with what to write instead', async (_name, bytes, message) => {
    await expect(csvOf(Uint8Array.from(bytes)).schema()).rejects.toThrow(UnreadableError);
    await expect(collectBatches(jsonlOf(Uint8Array.from(bytes)), ['a'])).rejects.toThrow(message);
  });

  it('reads a plain CSV whose header happens to start like a bzip2 signature as text', async () => {
    expect(await columnValues(csvOf(new TextEncoder().encode('BZh9,x\n1,2\n')), 'BZh9')).toEqual(['1']);
  });
});

const EVENTS = contractFrom(`
name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
  columns:
    - { name: id, type: int64, required: true }
    - { name: kind, type: string, pattern: "^[a-z]+$" }
`);

describe('a gzip bomb', () => {
  it('inflating to a 512 MiB line is one unreadable row, read in bounded memory, and the rows after it are read', async () => {
    const compressed = await gzipStream(['id,kind\n1,a\n2,', { fill: 0x78, mib: 512 }, '\n3,b\n']);
    expect(compressed.byteLength).toBeLessThan(8 * 2 ** 20);
    const start = process.memoryUsage().rss;
    let peak = start;
    const inner = byteSourceFromBytes(compressed);
    // Small compressed chunks, so memory is sampled all along the inflation, not just at its start.
    const source: ByteSource = { byteLength: inner.byteLength, slice: (s, e) => ((peak = Math.max(peak, process.memoryUsage().rss)), inner.slice(s, e)) };
    const batches = await collectBatches(openCsvFile(source, { chunkBytes: 16 * 1024 }), ['id']);
    expect(batches.flatMap((b) => Array.from(b.columns.get('id')!))).toEqual(['1', undefined, '3']);
    expect(batches.flatMap((b) => b.unreadableRows ?? [])).toEqual([{ row: 1, line: 3, reason: 'record is longer than the 16777216-byte limit (maxRecordBytes)' }]);
    expect(peak - start).toBeLessThan(200 * 2 ** 20);
  });
});

describe('gzip in a partition', () => {
  it('reports a corrupt file in a partition as unreadable, sampled under its own name, and checks the other files', async () => {
    const good = gzip('id,kind\n1,a\n2,b\n');
    const report = await validate(EVENTS, [memoryFile('part-0000.csv.gz', good), memoryFile('part-0001.csv.gz', good.subarray(0, 12))]);
    expect(counts(report)).toEqual({ unreadable: 1 });
    expect(report.violations[0]!.samples).toEqual([{ file: 'part-0001.csv.gz', row: null, value: expect.stringMatching(/^the gzip data ends early/) }]);
    expect(report.rows).toBe(2);
  });
});

/** Gzip of pieces (text, or `mib` MiB of one byte) made in a stream, never holding the text whole. */
async function gzipStream(pieces: readonly (string | { fill: number; mib: number })[]): Promise<Uint8Array> {
  const gz = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gz.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => gz.on('end', resolve));
  for (const piece of pieces) {
    // One MiB buffer written again and again: the test must not hold the text it compresses.
    const part = typeof piece === 'string' ? Buffer.from(piece) : Buffer.alloc(2 ** 20, piece.fill);
    const times = typeof piece === 'string' ? 1 : piece.mib;
    for (let i = 0; i < times; i++) if (!gz.write(part)) await new Promise((resolve) => gz.once('drain', resolve));
  }
  gz.end();
  await ended;
  return new Uint8Array(Buffer.concat(out));
}
