import { GateError } from '../errors.js';
import { DEFAULT_LAYOUT, type GateLayout } from '../gate/gate-layout.js';
import { DEFAULT_REGISTRY_PREFIX } from '../registry/registry-layout.js';

/** Where published data is read from: a directory, or a bucket with the gate's layout under an optional prefix. */
export type LakeAddress =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 's3'; readonly bucket: string; readonly prefix: string };

/** `s3://bucket`, `s3://bucket/prefix/` or a directory path. */
export function parseLakeAddress(text: string): LakeAddress {
  if (!text.startsWith('s3://')) return { kind: 'dir', path: text };
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(text);
  const prefix = (match?.[2] ?? '').replace(/\/+$/, '');
  if (!match?.[1] || (prefix !== '' && prefix.split('/').some((s) => s === '' || s === '.' || s === '..'))) {
    throw new GateError('bad_arguments', `a lake is a directory or s3://<bucket>[/<prefix>], not "${text}"`);
  }
  return { kind: 's3', bucket: match[1], prefix: prefix === '' ? '' : `${prefix}/` };
}

/** The gate's layout and registry under a prefix of the bucket (`''` for the bucket's root). */
export function prefixedLake(prefix: string): { readonly layout: GateLayout; readonly registryPrefix: string } {
  const layout = { ...DEFAULT_LAYOUT, staging: `${prefix}${DEFAULT_LAYOUT.staging}`, published: `${prefix}${DEFAULT_LAYOUT.published}`, quarantine: `${prefix}${DEFAULT_LAYOUT.quarantine}`, state: `${prefix}${DEFAULT_LAYOUT.state}`, audit: `${prefix}${DEFAULT_LAYOUT.audit}` };
  return { layout, registryPrefix: `${prefix}${DEFAULT_REGISTRY_PREFIX}` };
}

