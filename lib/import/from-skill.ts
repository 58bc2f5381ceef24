import type { Node } from 'yaml';
import type { ImportContext } from './legacy-shape.js';
import { keepOtherKeys, readLegacyColumns, semver } from './legacy-shape.js';

const TOP = ['contract', 'consumers', 'schema', 'sla'];
const CONTRACT = ['name', 'id', 'version', 'owner', 'description'];
const HOURS: Readonly<Record<string, number>> = { m: 1 / 60, min: 1 / 60, minutes: 1 / 60, h: 1, hour: 1, hours: 1, d: 24, day: 24, days: 24 };

/**
 * The skill shape: `contract: { name, owner }`, `consumers` as e-mail addresses, `schema` as a
 * list of columns with BigQuery-style types (STRING, INTEGER, FLOAT, DATE). Detected by a
 * top-level `contract` mapping beside a `schema` list.
 */
export function fromSkill(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  const contract = nodes.child(root, 'contract');
  draft.name = nodes.text(nodes.child(contract, 'name')) ?? nodes.text(nodes.child(contract, 'id'));
  draft.version = semver(c, nodes.child(contract, 'version'), 'contract.version');
  const owner = nodes.text(nodes.child(contract, 'owner'));
  // An owner written as an address is whom to page; the team is then its local part.
  if (owner?.includes('@')) draft.owner = { team: owner.split('@')[0] ?? owner, notify: [owner] };
  else if (owner) draft.owner.team = owner;
  const description = nodes.text(nodes.child(contract, 'description'));
  if (description) draft.description = description;
  keepOtherKeys(c, contract, 'contract', CONTRACT, { key: 'name' });
  readConsumers(c, nodes.child(root, 'consumers'));
  readLegacyColumns(c, nodes.child(root, 'schema'), 'schema', 'bigquery');
  readSla(c, nodes.child(root, 'sla'));
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}

/** Each address is a consumer told of breaking changes; the team is the address's local part. */
function readConsumers(c: ImportContext, node: Node | null | undefined): void {
  const addresses = c.nodes.strings(node);
  if (node === undefined) return;
  if (!addresses) {
    c.log.error('consumers', node, 'expected a list of e-mail addresses, e.g. consumers: [bi@example.com]');
    return;
  }
  c.draft.consumers = addresses.map((address) => ({ team: address.split('@')[0] ?? address, notify: [address] }));
  c.log.note({ key: 'consumers' }, 'consumer teams are named after their addresses: rename them, and list the columns each reads');
}

/** `freshness: 24h` or `"24 hours"` is the lag limit; availability and the like are promises no gate checks. */
function readSla(c: ImportContext, node: Node | null | undefined): void {
  const { nodes } = c;
  const freshnessNode = nodes.child(node, 'freshness');
  const text = nodes.text(freshnessNode);
  if (text !== undefined) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)?\s*$/i.exec(text);
    const unit = HOURS[(match?.[2] ?? 'h').toLowerCase()];
    if (match && unit !== undefined) c.draft.sla = { ...c.draft.sla, max_lag_hours: Number((Number(match[1]) * unit).toFixed(4)) };
    else c.log.error('sla.freshness', freshnessNode, `freshness "${text}" is not a duration such as 24h, 90 minutes or 1 day`);
  }
  keepOtherKeys(c, node, 'sla', ['freshness'], { key: 'sla' });
}
