import { join, relative, sep } from 'node:path';
import type { StatusLink } from './lake-status.js';

/** Turns a key of the lake into an address a browser opens: the page is made for one place of reading. */
export interface LinkStyle {
  href(link: StatusLink): string;
}

const encodeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

/**
 * On the local endpoint (`serve`): objects are plain GETs of the emulator, path-style; a prefix is
 * listed by the gate's own page. `origin` is empty for the pages `serve` itself answers.
 */
export function endpointLinks(bucket: string, origin = ''): LinkStyle {
  return {
    href: (link) => (link.kind === 'object' ? `${origin}/${encodeURIComponent(bucket)}/${encodeKey(link.key)}` : `${origin}/_gate/ls?prefix=${encodeURIComponent(link.key)}`),
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

/** A lake that is a directory: links relative to the page's own folder, so the pair can be moved together. */
export function fileLinks(lakeRoot: string, pageDir: string): LinkStyle {
  return {
    href: (link) => {
      const path = relative(pageDir, join(lakeRoot, ...link.key.split('/'))).split(sep).map(encodeURIComponent).join('/');
      return link.kind === 'listing' && !path.endsWith('/') ? `${path}/` : path;
    },
  };
}
