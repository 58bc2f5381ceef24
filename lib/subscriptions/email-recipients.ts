import type { Contract } from '../contract/model.js';

/** Who hears about a contract's notices: its owner and every registered consumer. */
export function contractRecipients(contract: Contract): readonly string[] {
  return [...contract.owner.notify, ...contract.consumers.flatMap((consumer) => consumer.notify)];
}

/** One e-mail subscription: `contracts` filters it on the `contract` message attribute; none means everything. */
export interface EmailSubscriptionPlan {
  readonly email: string;
  readonly contracts?: readonly string[];
}

/**
 * One subscription per address. SNS refuses a second subscription of the same endpoint with
 * other attributes, so an address that follows several contracts gets one filter listing them
 * all, and an alert address (unfiltered) needs no filtered one besides.
 */
export function planEmailSubscriptions(contracts: readonly Contract[], alertEmails: readonly string[]): EmailSubscriptionPlan[] {
  const unfiltered = new Map(alertEmails.map((email) => [normaliseEmail(email), email]));
  const filtered = new Map<string, { email: string; contracts: Set<string> }>();
  for (const contract of contracts) {
    for (const email of contractRecipients(contract)) {
      const key = normaliseEmail(email);
      if (unfiltered.has(key)) continue;
      const entry = filtered.get(key) ?? { email, contracts: new Set<string>() };
      entry.contracts.add(contract.name);
      filtered.set(key, entry);
    }
  }
  return [
    ...[...unfiltered.values()].map((email) => ({ email })),
    ...[...filtered.values()].map(({ email, contracts: names }) => ({ email, contracts: [...names].sort() })),
  ].sort((a, b) => a.email.localeCompare(b.email));
}

/** SNS keeps an e-mail endpoint as given; two spellings of one address are one recipient. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
