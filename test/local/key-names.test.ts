import { describe, expect, it } from 'vitest';
import { folderKeyPart, keyNames, objectKeyPart } from '../../lib/local/key-names.js';

/** Decodes a key's names back, as the listing walk does. */
function decoded(key: string): string | undefined {
  const { folders, base } = keyNames(key);
  const parts = [...folders.map(folderKeyPart), objectKeyPart(`${base}._S3rver_object`)];
  return parts.some((part) => part === undefined) ? undefined : parts.join('');
}

const HOSTILE = [
  'a/../b', 'a/./b', 'a//b', '..', '.', '../x', './x', '/', '//', '/leading', 'trailing/', '%', '%+', 'a%+/b', '%2e%2e/x',
  'a/%252e/b', 'caf\u00e9', 'cafe\u0301', 'x._S3rver_object', 'x._s3RVER_metadata.json/y', '.abc123.writing', '.hidden/.x',
  'a:b*c?d"e<f>g|h\\i', 'tab\there\u0001\u007f', 'x'.repeat(300), 'é'.repeat(300), `${'y'.repeat(199)}é${'.'.repeat(80)}`, '名前/データ.parquet',
];

describe('the key-to-file-name mapping', () => {
  it.each(HOSTILE)('decodes %j back to itself', (key) => {
    expect(decoded(key)).toBe(key);
  });

  it('never makes a name the file system treats specially, or one over 255 bytes with its longest suffix', () => {
    for (const key of HOSTILE) {
      const { folders, base } = keyNames(key);
      for (const name of [...folders, `${base}._S3rver_metadata.json`]) {
        expect(name).not.toMatch(/^\.|[/\\:*?"<>|\u0000-\u001f\u007f]|[^\u0000-\u007f]/);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      }
      for (const folder of folders) expect(folder.toLowerCase()).not.toContain('._s3rver_');
    }
  });

  it('gives distinct keys distinct paths, and no folder the name of a file', () => {
    const paths = HOSTILE.map((key) => {
      const { folders, base } = keyNames(key);
      return [...folders, base].join('/');
    });
    expect(new Set(paths).size).toBe(HOSTILE.length);
    expect(keyNames('x._S3rver_object/y').folders[0]).not.toBe(`${keyNames('x').base}._S3rver_object`);
  });

  it('refuses names it would not have written', () => {
    for (const name of ['._S3rver_uploads', '.1a2b.writing', 'a%2e', '%zz', 'abc%2', '%C3', '..', '']) expect(folderKeyPart(name)).toBeUndefined();
    expect(objectKeyPart('x._S3rver_object.md5')).toBeUndefined();
    expect(objectKeyPart('x%+._S3rver_object')).toBeUndefined();
  });
});
