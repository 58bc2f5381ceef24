import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../lib/contract/model.js';
import { contractRecipients, planEmailSubscriptions } from '../../lib/subscriptions/email-recipients.js';
import { paymentsContract, repositoryContracts } from './synth-gate.js';

let orders: Contract;
let payments: Contract;

beforeAll(async () => {
  orders = (await repositoryContracts()).find((c) => c.name === 'orders')!;
  payments = paymentsContract();
});

describe('planEmailSubscriptions', () => {
  it('subscribes each owner to their own contract only', () => {
    expect(contractRecipients(orders)).toEqual(['orders-oncall@example.com']);
    expect(planEmailSubscriptions([orders], [])).toEqual([{ email: 'orders-oncall@example.com', contracts: ['orders'] }]);
  });

  it('subscribes registered consumers to the contracts they read', () => {
    const read = { ...orders, consumers: [{ team: 'finance-bi', notify: ['bi@example.com'], columns: ['amount'] }] };
    expect(contractRecipients(read)).toEqual(['orders-oncall@example.com', 'bi@example.com']);
    expect(planEmailSubscriptions([read], [])).toEqual([
      { email: 'bi@example.com', contracts: ['orders'] },
      { email: 'orders-oncall@example.com', contracts: ['orders'] },
    ]);
  });

  it('gives an address that follows several contracts one subscription listing them all', () => {
    expect(planEmailSubscriptions([orders, payments], [])).toEqual([
      { email: 'orders-oncall@example.com', contracts: ['orders', 'payments'] },
      { email: 'payments-team@example.com', contracts: ['payments'] },
      { email: 'shared-analytics@example.com', contracts: ['payments'] },
    ]);
  });

  it('subscribes alert addresses unfiltered, and not a second time for a contract they own', () => {
    expect(planEmailSubscriptions([orders, payments], ['ops@example.com', 'Orders-Oncall@example.com'])).toEqual([
      { email: 'ops@example.com' },
      { email: 'Orders-Oncall@example.com' },
      { email: 'payments-team@example.com', contracts: ['payments'] },
      { email: 'shared-analytics@example.com', contracts: ['payments'] },
    ]);
  });

  it('lists a contract once however many major versions share its name', () => {
    const v2 = { ...orders, version: { ...orders.version, major: 2, text: '2.0.0' } };
    expect(planEmailSubscriptions([orders, v2], [])).toEqual([{ email: 'orders-oncall@example.com', contracts: ['orders'] }]);
  });
});
