import { parseContract } from '../../lib/contract/load-contract.js';
import { yaml } from './fixtures.js';

/** Lines 1-18 of the ODCS documents below; `properties` items start on line 19, indented 6. */
export const HEAD = [
  'apiVersion: v3.1.0',
  'kind: DataContract',
  'id: orders-v1',
  'name: orders',
  'version: 1.0.0',
  'status: active',
  'team:',
  '  name: orders-platform',
  '  members:',
  '    - username: oncall@example.com',
  'servers:',
  '  - server: prod',
  '    type: s3',
  '    location: s3://lake/orders/dt={ds}/',
  '    format: parquet',
  'schema:',
  '  - name: orders',
  '    properties:',
];

/** One string column, for documents whose subject is elsewhere. */
export const ID = ['      - name: order_id', '        logicalType: string'];

export function odcs(properties: string[], ...rest: string[]): string {
  return yaml(...HEAD, ...properties, ...rest);
}

/** HEAD with one line replaced (1-based), for documents that differ in their head. */
export function odcsWith(line: number, replacement: string | string[], properties: string[] = ID, ...rest: string[]): string {
  return odcsReplacing(line, line, Array.isArray(replacement) ? replacement : [replacement], properties, ...rest);
}

/** HEAD with lines `first`..`last` (1-based, inclusive) replaced. */
export function odcsReplacing(first: number, last: number, replacement: string[], properties: string[] = ID, ...rest: string[]): string {
  const head = [...HEAD];
  head.splice(first - 1, last - first + 1, ...replacement);
  return yaml(...head, ...properties, ...rest);
}

export function load(text: string, file = 'orders.v1.odcs.yaml') {
  return parseContract(text, file);
}

/** Code, severity, path and position of every problem, in document order. */
export function problemsIn(text: string) {
  return load(text).problems.map(({ code, severity, path, line, column }) => ({ code, severity, path, line, column }));
}
