import { CALL_MARGIN_MS } from '../gate/deadline-store.js';

/**
 * What one validate invocation was measured to get through, on one vCPU (1,769 MB):
 * - rows: 1.78M rows/s at 10M rows, the quarter-violations orders shape (README "Sizing the
 *   validate Lambda", bench/lambda-results.json: 2.17M-2.35M rows/s in the latest run); shapes
 *   that must be decoded are about 3x slower (violations in every row group), which is the
 *   ~0.5M rows/s issue 16 measured. That slower figure is the one the limits rest on.
 * - bytes: 32 B/row, the orders shape's Parquet (bench/lambda-results.json `bytes_per_row`).
 * - memory: about 130 MB plus 13 B/row with a grain (README "Memory, not time, limits one invocation").
 */
export const MEASURED_INVOCATION = {
  rowsPerSecond: 500_000,
  bytesPerRow: 32,
  baseMemoryMb: 130,
  memoryBytesPerRow: 13,
} as const;

/** The time the handler keeps for what comes around the check: the lease, the listing, the handoff. */
export const HANDOFF_RESERVE_MS = 20_000;
/** Half the measured rate: real S3 is slower than the local endpoint, and arm64 cores differ from the bench's. */
export const RATE_SAFETY = 0.5;
/** A quarter of the memory kept free: the fitted line, not the function, would be at its limit. */
const MEMORY_SAFETY = 0.75;
/** Not time-bound: the per-file cost measured locally is ~40 ms (files20-5m against spread-5m). */
export const DEFAULT_MAX_FILES = 200;

export interface DerivedLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
  /** How long the validate function checks in its own thread before it hands the drop to the fan-out. */
  readonly checkSeconds: number;
}

/**
 * The fan-out thresholds for a validate function of this timeout and memory:
 *   checkSeconds = timeout − 10 s call margin − 20 s handoff reserve
 *   maxBytes     = min(rate_bytes_per_s × checkSeconds × 0.5,
 *                      (memoryMb − 130 MB) / 13 B per row × 32 B per row × 0.75)
 * with rate_bytes_per_s = 0.5M rows/s × 32 B/row = 16 MB/s. At 300 s and 1,769 MB that is
 * 270 s and 2.16 GB (the time bound; the memory bound is 3.17 GB).
 */
export function derivedFanoutLimits(options: { readonly timeoutSeconds: number; readonly memoryMb: number }): DerivedLimits {
  const checkSeconds = checkSecondsFor(options.timeoutSeconds);
  const { rowsPerSecond, bytesPerRow, baseMemoryMb, memoryBytesPerRow } = MEASURED_INVOCATION;
  const byTime = rowsPerSecond * bytesPerRow * checkSeconds * RATE_SAFETY;
  const rowsInMemory = (Math.max(0, options.memoryMb - baseMemoryMb) * 1024 ** 2) / memoryBytesPerRow;
  const byMemory = rowsInMemory * bytesPerRow * MEMORY_SAFETY;
  // At least a MiB, the smallest limit a configuration may set: a tiny function still fans out.
  return { maxFiles: DEFAULT_MAX_FILES, maxBytes: Math.max(1024 ** 2, Math.floor(Math.min(byTime, byMemory))), checkSeconds };
}

/** The in-thread check's budget; at least a tenth of the timeout, for timeouts too short for the reserve. */
export function checkSecondsFor(timeoutSeconds: number): number {
  const reserved = timeoutSeconds - (CALL_MARGIN_MS + HANDOFF_RESERVE_MS) / 1000;
  return Math.max(Math.ceil(timeoutSeconds / 10), Math.floor(reserved));
}
