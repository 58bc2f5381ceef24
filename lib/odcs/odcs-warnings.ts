import type { Node } from 'yaml';
import type { YamlReader } from '../contract/yaml-reader.js';

/**
 * Reports an ODCS rule contract-gate cannot enforce: a warning naming the rule and its path, so
 * a producer sees which promises of the contract no gate checks. The problem codes are shared
 * with native contracts; `rule_not_for_type` is the closest: a rule this checker cannot carry.
 */
export function notEnforced(reader: YamlReader, path: string, node: Node | null | undefined, what: string, why?: string): void {
  reader.report('rule_not_for_type', path, node, `${what} is not enforced by contract-gate${why ? `: ${why}` : ''}`, 'warning');
}
