import { readFileSync } from 'node:fs';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { formatProblem } from '../../lib/contract/problems.js';

/** Contract versions for the compat tests, written as text edits of the shipped orders contract. */
export const ORDERS_V1 = readFileSync('contracts/orders.v1.yaml', 'utf8');

/** [text to find, its replacement]: an edit that finds nothing fails the test, never passes it silently. */
export type Edit = readonly [string, string];

export type Mode = 'backward' | 'forward' | 'full' | 'none';

export const COUPON = '    - { name: coupon, type: string, max_length: 32 }';
export const AMOUNT = '    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }';
export const REFUND = '    - { name: refund_amount, type: float64, required_when: { column: status, in: [cancelled] } }';
export const UPDATED = '    - { name: updated_at, type: timestamp, required: true }';
export const ORDERED = '    - { name: ordered_at, type: timestamp, required: true, not_in_future: true }';

export function applyEdits(text: string, edits: readonly Edit[]): string {
  return edits.reduce((current, [from, to]) => {
    if (!current.includes(from)) throw new Error(`the edit finds nothing to replace: ${from}`);
    return current.replace(from, to);
  }, text);
}

export const setMode = (mode: Mode): Edit => ['compat: { mode: backward }', `compat: { mode: ${mode} }`];
export const setVersion = (version: string): Edit => ['version: 1.2.0', `version: ${version}`];
export const addColumn = (spec: string): Edit => [COUPON, `${COUPON}\n    - ${spec}`];
export const consumersBlock = (lines: readonly string[]): Edit => ['compat:', `consumers:\n${lines.map((l) => `  - ${l}`).join('\n')}\ncompat:`];

/** Loads contract text the tests wrote; a mistake in a test's YAML fails loudly with the loader's problems. */
export function loadText(text: string, file = 'orders.yaml'): Contract {
  const { contract, problems } = parseContract(text, file);
  if (!contract) throw new Error(`the test contract does not load:\n${problems.map(formatProblem).join('\n')}`);
  return contract;
}
