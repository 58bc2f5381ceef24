import { UnreadableError } from './table-file.js';

/**
 * A page must inflate to exactly the size its header declares: every decoder stops as soon as its
 * output would pass that size (a 64 KiB page that inflates to 256 MiB costs no more than 64 KiB),
 * and one that makes fewer bytes is refused too. The page is named by the caller (guarded-codecs.ts).
 */
export class InflatedSizeError extends UnreadableError {
  /** `actual` is undefined when decoding stopped at the first byte too many. */
  constructor(readonly declared: number, readonly actual: number | undefined) {
    super(inflatedMessage('its', declared, actual));
  }
}

export function inflatedMessage(codec: string, declared: number, actual: number | undefined): string {
  return `${codec} data inflates to ${actual === undefined ? 'more than' : `${actual} bytes, not`} the ${declared} bytes its page header declares`;
}

export function inflatedMore(declared: number): InflatedSizeError {
  return new InflatedSizeError(declared, undefined);
}

/** Throws unless `actual` bytes is what the header declares. */
export function inflatedSize(declared: number, actual: number): void {
  if (actual !== declared) throw new InflatedSizeError(declared, actual > declared ? undefined : actual);
}
