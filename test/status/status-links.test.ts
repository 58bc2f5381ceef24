import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baseLinks, consoleLinks, endpointLinks, fileLinks, gateLinks } from '../../lib/status/status-links.js';

// How each place of reading turns a key into an address. A key segment may hold anything a
// producer's partition value holds: `=`, a space, `#`, `?` and `%` must survive the trip.

const ODD = 'published/shipments/v1/region=eu west#1?/pct=50%/_SUCCESS';
const ODD_ENCODED = 'published/shipments/v1/region%3Deu%20west%231%3F/pct%3D50%25/_SUCCESS';

describe('endpointLinks', () => {
  it('gets objects path-style from the endpoint, encoding each segment and keeping the slashes', () => {
    expect(endpointLinks('lake', 'http://127.0.0.1:4566').href({ kind: 'object', key: ODD })).toBe(`http://127.0.0.1:4566/lake/${ODD_ENCODED}`);
  });

  it('lists a prefix with ListObjectsV2, which any S3-compatible endpoint answers', () => {
    const href = endpointLinks('lake', 'http://127.0.0.1:9000').href({ kind: 'listing', key: 'staging/shipments/v1/dt=2026-11-29/' });
    expect(href).toBe('http://127.0.0.1:9000/lake?list-type=2&prefix=staging%2Fshipments%2Fv1%2Fdt%3D2026-11-29%2F');
  });
});

describe('gateLinks', () => {
  it('puts the whole key in the query of serve\'s own pages, so a ".." segment stays part of the key', () => {
    const links = gateLinks();
    const sneaky = 'staging/evil/v1/dt=2026-11-24/../../../../published/evil/v1/dt=2026-11-24/x.csv';
    const href = links.href({ kind: 'object', key: sneaky });
    expect(href.startsWith('/_gate/object?key=')).toBe(true);
    expect(new URL(href, 'http://x').searchParams.get('key')).toBe(sneaky);
    expect(new URL(href, 'http://x').pathname).toBe('/_gate/object');
    const listing = gateLinks('http://127.0.0.1:4566').href({ kind: 'listing', key: 'staging/shipments/v1/dt=2026-11-29/' });
    expect(listing).toBe('http://127.0.0.1:4566/_gate/ls?prefix=staging%2Fshipments%2Fv1%2Fdt%3D2026-11-29%2F');
  });
});

describe('consoleLinks', () => {
  it('opens the S3 console\'s object view for an object and its folder view for a prefix', () => {
    const links = consoleLinks('acme-lake');
    expect(links.href({ kind: 'object', key: 'published/a/v1/dt=2026-11-29/_SUCCESS' })).toBe('https://s3.console.aws.amazon.com/s3/object/acme-lake?prefix=published%2Fa%2Fv1%2Fdt%3D2026-11-29%2F_SUCCESS');
    expect(links.href({ kind: 'listing', key: 'staging/a/v1/dt=2026-11-29/' })).toBe('https://s3.console.aws.amazon.com/s3/buckets/acme-lake?prefix=staging%2Fa%2Fv1%2Fdt%3D2026-11-29%2F');
  });
});

describe('baseLinks', () => {
  it('appends the key to the base, each segment encoded, however many slashes end the base', () => {
    for (const base of ['https://lake.example.com', 'https://lake.example.com/', 'https://lake.example.com//']) {
      expect(baseLinks(base).href({ kind: 'object', key: ODD }), base).toBe(`https://lake.example.com/${ODD_ENCODED}`);
    }
    expect(baseLinks('https://cdn.example.com/lake/').href({ kind: 'listing', key: 'staging/a/v1/dt=2026-11-29/' })).toBe('https://cdn.example.com/lake/staging/a/v1/dt%3D2026-11-29/');
  });
});

describe('fileLinks', () => {
  function lake(): string {
    const root = mkdtempSync(join(tmpdir(), 'cg-file-links-'));
    mkdirSync(join(root, 'lake', 'published', 'shipments', 'v1', 'region=eu west#1?', 'pct=50%'), { recursive: true });
    writeFileSync(join(root, 'lake', ...ODD.split('/')), '{}');
    mkdirSync(join(root, 'lake', 'staging', 'shipments', 'v1', 'dt=2026-11-29'), { recursive: true });
    return root;
  }
  const opened = (href: string, pageDir: string) => fileURLToPath(new URL(href, pathToFileURL(join(pageDir, 'status.html'))));

  it('links an object relative to the page, so a browser opens that very file', () => {
    const root = lake();
    for (const pageDir of [join(root, 'lake'), join(root, 'site', 'deep')]) {
      const href = fileLinks(join(root, 'lake'), pageDir).href({ kind: 'object', key: ODD });
      expect(opened(href, pageDir), href).toBe(join(root, 'lake', ...ODD.split('/')));
    }
    expect(fileLinks(join(root, 'lake'), join(root, 'site', 'deep')).href({ kind: 'object', key: ODD })).toBe(`../../lake/${ODD_ENCODED}`);
  });

  it('links a prefix to its folder, with the slash that makes it a folder', () => {
    const root = lake();
    const href = fileLinks(join(root, 'lake'), join(root, 'lake')).href({ kind: 'listing', key: 'staging/shipments/v1/dt=2026-11-29/' });
    expect(href).toBe('staging/shipments/v1/dt%3D2026-11-29/');
  });

  it('links a prefix the directory lacks to the nearest folder above it that is there', () => {
    const root = lake();
    const links = fileLinks(join(root, 'lake'), join(root, 'lake'));
    expect(links.href({ kind: 'listing', key: 'staging/shipments/v1/dt=2026-11-28/' })).toBe('staging/shipments/v1/');
    expect(links.href({ kind: 'listing', key: 'staging/parcels/v1/dt=2026-11-28/' })).toBe('staging/');
  });

  it('links the lake\'s own root as ./ from a page inside it, and as its folder from elsewhere: never as the disk\'s root', () => {
    const root = lake();
    expect(fileLinks(join(root, 'lake'), join(root, 'lake')).href({ kind: 'listing', key: 'quarantine/parcels/v1/dt=2026-11-28/' })).toBe('./');
    expect(fileLinks(join(root, 'lake'), root).href({ kind: 'listing', key: 'quarantine/parcels/v1/dt=2026-11-28/' })).toBe('lake/');
  });
});
