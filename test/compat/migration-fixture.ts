import { COUPON, ORDERS_V1, applyEdits, setVersion } from './contract-edits.js';

/** v1 as a team leaves it when v2 ships: deprecated, its sunset closing the window (seed 001). */
export const DEPRECATED_V1 = applyEdits(ORDERS_V1, [setVersion('1.3.0'), ['status: active', 'status: deprecated\nsunset: 2027-01-31']]);

/** v2: coupon dropped (a column) and updated_at added to the grain (the whole dataset). */
export const V2 = applyEdits(ORDERS_V1, [[`${COUPON}\n`, ''], ['grain: [order_id]', 'grain: [order_id, updated_at]'], setVersion('2.0.0')]);

/** The seed's migration plan for V2, as a producer writes it by hand. */
export const V2_DOCUMENT = `# orders v1 to v2

## What changed and why

- \`coupon\` is removed: coupons live in their own dataset, coupons v1, since November.
- The grain is now (order_id, updated_at): v2 keeps every update of an order, not the last one.

## Affected downstream models

- stg_orders, fct_revenue, dim_coupons.

## Deprecation timeline

- 2027-01-10: v2 is published beside v1; the window opens.
- 2027-01-31: v1 sunset; the gate quarantines every v1 drop from that day.

## Action required from consumers

- Read coupons from coupons v1; deduplicate orders on (order_id, updated_at).
`;

/** The skeleton's placeholders written, as a producer fills them in. */
export function fillSkeleton(skeleton: string): string {
  return skeleton
    .replace(/TODO\(migration\) why .*/, 'coupons moved to their own dataset.')
    .replace(/TODO\(migration\) the downstream models.*/, 'stg_orders, fct_revenue.')
    .replace(/TODO\(migration\) YYYY-MM-DD/, '2027-01-10')
    .replace(/TODO\(migration\) what each consumer.*/, 'read coupons from coupons v1.');
}
