import type { GateReport } from './gate-report.js';
import type { DropAddress } from './gate-layout.js';
import type { StagedFile } from './read-drop.js';

/**
 * What the gate decided for one drop, written once with a conditional create under `_gate/`.
 * Every handler that sees the drop afterwards carries out this record, not its own verdict, so
 * repeated and concurrent deliveries converge on one outcome.
 */
export interface Decision {
  readonly format: 'contract-gate/decision@1';
  readonly tag: string;
  /** Sortable and unique per drop: names the quarantine folder and appears in `_SUCCESS`. */
  readonly attempt: string;
  readonly outcome: 'publish' | 'quarantine';
  readonly decided_at: string;
  readonly address: DropAddress;
  readonly contract: { readonly name: string; readonly version: string; readonly owner: string } | null;
  readonly files: readonly StagedFile[];
  readonly report: GateReport;
  /** The freshness column's newest value when the contract names one (ISO-8601). */
  readonly newest?: { readonly column: string; readonly value: string };
  /** The producer's `_READY` manifest, kept with the publish so its bytes are not lost. */
  readonly producer_manifest?: unknown;
}

export function attemptId(decidedAt: number, tag: string): string {
  const stamp = new Date(decidedAt).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${stamp}-${tag.slice(0, 8)}`;
}

export function parseDecision(text: string): Decision | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<Decision>;
    return parsed.format === 'contract-gate/decision@1' ? (parsed as Decision) : undefined;
  } catch {
    return undefined;
  }
}
