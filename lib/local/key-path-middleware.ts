import { s3rverError, type KoaMiddleware } from './s3rver-types.js';

/** S3's limit on a key, in UTF-8 bytes. */
export const MAX_KEY_BYTES = 1024;

/**
 * Hands s3rver's router the key exactly as S3 reads it from the path: percent-decoded once,
 * nothing else. The router matches one name per `/`, so `a//b` or a leading `/` found no route
 * (404), and it decodes `+` as a space; re-encoding the decoded key as one path segment lets it
 * match any key and decode it back unchanged. Keys over S3's limit are refused as S3 refuses them.
 * Must run first: every later middleware reads the key from the rewritten path.
 */
export const keyPathMiddleware: KoaMiddleware = async (ctx, next) => {
  const match = /^\/([^/]+)\/(.+)$/s.exec(ctx.path);
  if (match?.[1] === undefined || match[2] === undefined) return next();
  let key: string;
  try {
    key = decodeURIComponent(match[2]);
  } catch {
    return next(); // malformed escapes: let s3rver reject the request its own way
  }
  const size = Buffer.byteLength(key, 'utf8');
  if (size > MAX_KEY_BYTES) throw s3rverError('KeyTooLongError', 'Your key is too long', { Size: size, MaxSizeAllowed: MAX_KEY_BYTES });
  ctx.path = `/${match[1]}/${encodeURIComponent(key)}`;
  await next();
};
