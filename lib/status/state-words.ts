import type { CellState, NoticeKind } from './lake-status.js';

export interface StateWords {
  /** A symbol that differs per state, so the state reads without its colour. */
  readonly symbol: string;
  readonly word: string;
}

// Symbols from the fonts every system has (DejaVu, Segoe UI Symbol): no emoji, no web font.
export const STATE_WORDS: Readonly<Record<CellState, StateWords>> = {
  published: { symbol: '✓', word: 'published' },
  published_with_warnings: { symbol: '⚠', word: 'published with warnings' },
  quarantined: { symbol: '✗', word: 'quarantined' },
  in_staging: { symbol: '◐', word: 'still in staging' },
  missed_sla: { symbol: '⊘', word: 'missed SLA' },
  waiting: { symbol: '○', word: 'not yet due' },
};

export const NOTICE_WORDS: Readonly<Record<NoticeKind, StateWords>> = {
  verdict: { symbol: '■', word: 'gate verdict' },
  sla_missed: { symbol: '⊘', word: 'SLA missed' },
  sla_recovered: { symbol: '✓', word: 'SLA recovered' },
  stale: { symbol: '⚠', word: 'stale data' },
  abandoned: { symbol: '◐', word: 'abandoned drop' },
  sunset_reminder: { symbol: '○', word: 'sunset reminder' },
};
