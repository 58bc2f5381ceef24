import { createHash } from 'node:crypto';

/** SHA-256 hex of some bytes or text: how registered versions and audit records are pinned. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
