import { createRequire } from 'node:module';
import type { KoaMiddleware } from './s3rver-types.js';

interface XmlBuilder {
  build(body: unknown): string;
}
type XmlBuilderConstructor = new (options: { ignoreAttributes: boolean; attributesGroupName: string }) => XmlBuilder;

/**
 * Renders s3rver's response documents escaping each value once. s3rver escapes values with `he`
 * and then hands them to fast-xml-parser, which escapes them again, so a key holding `&`, `<`,
 * `>` or `'` came back from a listing (or a completed upload) as `&amp;`, `&lt;`, … Must sit
 * just before s3rver's router, so documents are strings before s3rver's own renderer sees them.
 */
export function xmlBodyMiddleware(): KoaMiddleware {
  // s3rver's own dependency, so the emulator renders with the library it was built against.
  const require = createRequire(createRequire(import.meta.url).resolve('@20minutes/s3rver'));
  const { XMLBuilder } = require('fast-xml-parser') as { XMLBuilder: XmlBuilderConstructor };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributesGroupName: '@' });
  return async (ctx, next) => {
    await next();
    if (!isPlainObject(ctx.body)) return;
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(ctx.body)}`;
  };
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
