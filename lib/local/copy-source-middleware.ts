import type { KoaMiddleware } from './s3rver-types.js';

/**
 * S3 takes `x-amz-copy-source` URL-encoded, but s3rver decodes it with decodeURI, which leaves
 * %2B, %3D, %2C, %26 … encoded: a correctly encoded source key containing `+` or `=` is then
 * not found. Re-encoding the fully decoded value with encodeURI hands s3rver a form its
 * decodeURI turns back into the raw key.
 */
export const copySourceMiddleware: KoaMiddleware = async (ctx, next) => {
  const source = ctx.headers['x-amz-copy-source'];
  if (typeof source === 'string') {
    try {
      ctx.headers['x-amz-copy-source'] = encodeURI(decodeURIComponent(source));
    } catch {
      // malformed escapes: leave the header for s3rver to reject
    }
  }
  await next();
};
