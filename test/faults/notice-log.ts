import type { Notice, Notifier } from '../../lib/notify/notifier.js';
import type { HandlerLife } from './handler-life.js';
import { Crash } from './injected-faults.js';

export interface SentNotice {
  /** The notice's id: a receiver that sees one id twice has seen one notice (see notify-once.ts). */
  readonly id: string;
  readonly handler: string;
  readonly partition: string;
  readonly outcome: string;
}

/** Every notice any handler of a run sent, in order, to count them per partition afterwards. */
export class NoticeLog {
  readonly sent: SentNotice[] = [];

  /** A handler's notifier: a dead handler sends nothing, as a killed Lambda cannot call SNS. */
  notifierFor(life: HandlerLife): Notifier {
    return {
      notify: async (notice: Notice) => {
        if (life.dead) throw new Crash(`${life.id} is dead; the notice was not sent`);
        this.sent.push({ id: notice.id ?? `unnamed-${this.sent.length}`, handler: life.id, partition: notice.attributes.partition ?? '', outcome: notice.attributes.outcome });
      },
    };
  }

  forPartition(partition: string): SentNotice[] {
    return this.sent.filter((notice) => notice.partition === partition);
  }
}
