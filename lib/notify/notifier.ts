/**
 * The notifier port. One topic carries every notice; subscribers filter on the attributes
 * (an SNS filter policy on `contract`, `outcome`, `severity`, ...), so an owner or a consumer
 * gets only what concerns them.
 */
export interface Notifier {
  notify(notice: Notice): Promise<void>;
}

export type Outcome = 'published' | 'quarantined' | 'superseded' | 'sla_missed' | 'sla_recovered' | 'stale' | 'sunset_reminder' | 'abandoned' | 'misplaced_record' | 'registry_refused';
export type Severity = 'info' | 'warning' | 'critical';

export interface Notice {
  /** Names this notice among retries: a receiver that sees one id twice has seen one notice. */
  readonly id?: string;
  /** Short enough for an e-mail subject (SNS allows 100 characters). */
  readonly subject: string;
  /** Plain text, readable in an e-mail. */
  readonly body: string;
  readonly attributes: NoticeAttributes;
}

export interface NoticeAttributes {
  readonly contract: string;
  readonly version: string;
  readonly owner: string;
  readonly outcome: Outcome;
  readonly severity: Severity;
  readonly partition?: string;
  /** The drop a gate notice is about (its decision's tag) and the attempt that decided it. */
  readonly drop?: string;
  readonly attempt?: string;
}
