import type { Drop } from '../gate/read-drop.js';

/** Past either limit a partition is validated by the fan-out instead of one handler. */
export interface FanoutLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export function shouldFanOut(drop: Pick<Drop, 'files'>, limits: FanoutLimits): boolean {
  if (drop.files.length > limits.maxFiles) return true;
  return drop.files.reduce((sum, file) => sum + file.size, 0) > limits.maxBytes;
}
