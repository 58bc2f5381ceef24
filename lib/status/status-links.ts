import { statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { StatusLink } from './lake-status.js';

/** Turns a key of the lake into an address a browser opens: the page is made for one place of reading. */
export interface LinkStyle {
  href(link: StatusLink): string;
}

const encodeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

/**
 * The pages `serve` answers (origin empty on its own pages): objects and listings through
 * `/_gate/object` and `/_gate/ls`, the key in the query, where a browser cannot resolve a `..`
 * segment of a key into another object, and served with headers no staged file chooses.
 */
export function gateLinks(origin = ''): LinkStyle {
  return {
    href: (link) => `${origin}/_gate/${link.kind === 'object' ? 'object?key' : 'ls?prefix'}=${encodeURIComponent(link.key)}`,
  };
}

/** Any S3-compatible endpoint (`--endpoint`): path-style GETs, and ListObjectsV2 for a prefix. */
export function endpointLinks(bucket: string, origin: string): LinkStyle {
  return {
    href: (link) => (link.kind === 'object'
      ? `${origin}/${encodeURIComponent(bucket)}/${encodeKey(link.key)}`
      : `${origin}/${encodeURIComponent(bucket)}?list-type=2&prefix=${encodeURIComponent(link.key)}`),
  };
}

/** A bucket on AWS: the S3 console's object and folder views, which sign the reader in. */
export function consoleLinks(bucket: string): LinkStyle {
  const console = 'https://s3.console.aws.amazon.com/s3';
  return {
    href: (link) => (link.kind === 'object'
      ? `${console}/object/${encodeURIComponent(bucket)}?prefix=${encodeURIComponent(link.key)}`
      : `${console}/buckets/${encodeURIComponent(bucket)}?prefix=${encodeURIComponent(link.key)}`),
  };
}

/** `--link-base <url>`: a website, CloudFront or gateway in front of the bucket, keys appended. */
export function baseLinks(base: string): LinkStyle {
  const root = base.replace(/\/+$/, '');
  return { href: (link) => `${root}/${encodeKey(link.key)}` };
}

/**
 * A lake that is a directory: links relative to the page's own folder, so the pair can be moved
 * together. A folder to list that the directory lacks (a partition that never arrived) links to
 * the nearest folder above it that exists: a browser opens that, where the bare path is an error.
 */
export function fileLinks(lakeRoot: string, pageDir: string): LinkStyle {
  const address = (path: string) => relative(pageDir, path).split(sep).map(encodeURIComponent).join('/');
  return {
    href: (link) => {
      const segments = link.key.split('/').filter((segment) => segment !== '');
      if (link.kind === 'object') return address(join(lakeRoot, ...segments));
      while (segments.length > 0 && !folderExists(join(lakeRoot, ...segments))) segments.pop();
      const path = address(join(lakeRoot, ...segments));
      // The lake's own root, when the page sits in it: '' would be no link at all, and '/' the disk's root.
      return path === '' ? './' : `${path}/`;
    },
  };
}

function folderExists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}
