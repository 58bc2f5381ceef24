import type { Decision } from '../lib/gate/decision.js';

/** One JSON object per line: what CloudWatch Logs Insights queries and metric filters read. */
export function logJson(level: 'info' | 'warn' | 'error', message: string, fields: object = {}): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

/** What a handler logs of a verdict: a decision's attempt and summary, or why there was none. */
export function describeOutcome(outcome: { readonly status: string; readonly decision: Decision } | { readonly status: string; readonly reason: string }): { status: string; attempt: string; summary: string } | { status: string; reason: string } {
  if ('decision' in outcome) return { status: outcome.status, attempt: outcome.decision.attempt, summary: outcome.decision.report.summary };
  return { status: outcome.status, reason: outcome.reason };
}
