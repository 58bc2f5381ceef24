import { describe, expect, it } from 'vitest';
import { planSubscriptions, type SubscriptionPlanInput } from '../../lib/subscriptions/plan-subscriptions.js';

const ARN = 'arn:aws:sns:eu-west-1:123456789012:notices';
const mine = (email: string, contracts: string[], n = 1) => ({ email, arn: `${ARN}:mine-${n}`, contracts });
const plan = (input: Partial<SubscriptionPlanInput>) => planSubscriptions({ desired: [], listed: [], managed: [], removals: true, ...input });

describe('planSubscriptions', () => {
  it('subscribes an address nobody subscribed, filtered to its contracts', () => {
    expect(plan({ desired: [{ email: 'a@example.com', contracts: ['orders'] }] }).actions).toEqual([{ kind: 'subscribe', email: 'a@example.com', contracts: ['orders'] }]);
  });

  it('matches addresses however they are spelled, and only e-mail subscriptions', () => {
    const result = plan({
      desired: [{ email: 'A@Example.com', contracts: ['orders'] }, { email: 'hook@example.com', contracts: ['orders'] }],
      listed: [{ protocol: 'email', endpoint: 'a@example.com ', arn: `${ARN}:by-hand` }, { protocol: 'https', endpoint: 'hook@example.com', arn: `${ARN}:hook` }],
    });
    expect(result.unmanaged).toEqual(['A@Example.com']);
    expect(result.actions).toEqual([{ kind: 'subscribe', email: 'hook@example.com', contracts: ['orders'] }]);
  });

  it('sets the filter of a managed subscription whose contracts changed, pending or not', () => {
    const managed = [mine('a@example.com', ['orders'], 1), mine('b@example.com', ['orders'], 2)];
    const listed = [{ protocol: 'email', endpoint: 'a@example.com' }, { protocol: 'email', endpoint: 'b@example.com', arn: `${ARN}:mine-2` }];
    const desired = [{ email: 'a@example.com', contracts: ['orders', 'payments'] }, { email: 'b@example.com', contracts: ['payments'] }];
    expect(plan({ desired, listed, managed }).actions).toEqual([
      { kind: 'set-filter', managed: managed[0], contracts: ['orders', 'payments'], pending: true },
      { kind: 'set-filter', managed: managed[1], contracts: ['payments'], pending: false },
    ]);
  });

  it('unsubscribes a managed address no contract names, and keeps the rest as they are', () => {
    const managed = [mine('a@example.com', ['orders'], 1), mine('gone@example.com', ['orders'], 2)];
    const listed = managed.map((m) => ({ protocol: 'email', endpoint: m.email, arn: m.arn }));
    const result = plan({ desired: [{ email: 'a@example.com', contracts: ['orders'] }], listed, managed });
    expect(result.actions).toEqual([{ kind: 'unsubscribe', managed: managed[1], pending: false }]);
    expect(result.kept).toEqual([managed[0]]);
  });

  it('forgets a managed address someone subscribed again under another ARN', () => {
    const result = plan({ desired: [], listed: [{ protocol: 'email', endpoint: 'a@example.com', arn: `${ARN}:by-hand` }], managed: [mine('a@example.com', ['orders'])] });
    expect(result).toEqual({ actions: [], kept: [], unmanaged: [] });
  });

  it('does not ask again an address gone from the topic, unless a contract newly names it', () => {
    const managed = [mine('a@example.com', ['orders'])];
    expect(plan({ desired: [{ email: 'a@example.com', contracts: ['orders'] }], managed })).toEqual({ actions: [], kept: managed, unmanaged: [] });
    expect(plan({ desired: [{ email: 'a@example.com', contracts: ['orders', 'payments'] }], managed }).actions).toEqual([
      { kind: 'subscribe', email: 'a@example.com', contracts: ['orders', 'payments'], managed: managed[0] },
    ]);
  });

  it('removes nothing and narrows nothing on a partial view of the registry', () => {
    const managed = [mine('a@example.com', ['orders', 'payments'], 1), mine('b@example.com', ['orders'], 2)];
    const listed = managed.map((m) => ({ protocol: 'email', endpoint: m.email, arn: m.arn }));
    const result = plan({ desired: [{ email: 'a@example.com', contracts: ['orders', 'refunds'] }], listed, managed, removals: false });
    expect(result.actions).toEqual([{ kind: 'set-filter', managed: managed[0], contracts: ['orders', 'payments', 'refunds'], pending: false }]);
    expect(result.kept).toEqual([managed[1]]);
  });
});
