import type { Decision } from './decision.js';

/**
 * `_SUCCESS`, written last: what consumers read. It lists every published file with its size
 * and ETag, so a consumer reads exactly these and can check what it got.
 */
export function successManifest(decision: Decision, files: readonly { key: string; size: number; etag: string }[], rejectedRows?: string): string {
  const { report } = decision;
  const withheld = decision.withheld?.rows ?? 0;
  const warned = report.violations.filter((v) => v.severity === 'warning').map(({ rule, column, count, message }) => ({ rule, ...(column === undefined ? {} : { column }), count, message }));
  return `${JSON.stringify({
    format: 'contract-gate/success@1',
    contract: decision.contract ? { name: decision.contract.name, version: decision.contract.version, ...(decision.contract.origin ? { origin: decision.contract.origin } : {}) } : null,
    partition: decision.address.partition,
    attempt: decision.attempt,
    decided_at: decision.decided_at,
    // What a consumer finds in the files: the rows withheld under the row tolerance are not there.
    rows: report.rows - withheld,
    files: files.map((f) => ({ key: f.key, size: f.size, etag: f.etag })),
    checks: { status: report.status, violations: report.violations.length - warned.length, warnings: report.warnings, ...(warned.length > 0 ? { warned } : {}), checked_at: report.checked_at },
    ...(withheld > 0 ? { withheld: { rows: withheld, rejected_rows: rejectedRows, tolerance: report.tolerance?.tolerance } } : {}),
    ...(decision.newest ? { newest: decision.newest } : {}),
    ...(decision.producer_manifest === undefined ? {} : { producer_manifest: decision.producer_manifest }),
    // A release keeps the failed checks above: a consumer sees both that they failed and who published anyway.
    ...(decision.release ? { release: { override: true, ...decision.release } } : {}),
  }, null, 2)}\n`;
}
