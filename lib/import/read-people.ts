import type { Node } from 'yaml';
import { parseClockText } from './clock-text.js';
import type { DraftConsumer } from './import-draft.js';
import type { ImportContext } from './legacy-shape.js';
import { keepAsNote, keepOtherKeys } from './legacy-shape.js';

const ADDRESS = /^[^@\s]+@[^@\s]+$/;

/** The addresses among `values`, and the rest: text where an address should be ("[e-mail]" on a page that hid them). */
function split(values: readonly string[]): { addresses: string[]; others: string[] } {
  return { addresses: values.filter((v) => ADDRESS.test(v)), others: values.filter((v) => !ADDRESS.test(v)) };
}

const localPart = (address: string) => address.split('@')[0] ?? address;

/**
 * `owner:` as a team (`orders-platform`), an address, or a list of addresses. A list without an
 * address (the skill's page printed `owner: [e-mail]`, its addresses redacted) still imports:
 * the owner becomes a TODO with a warning, as when no owner is given.
 */
export function readOwnerValue(c: ImportContext, node: Node | null | undefined, path: string): void {
  const values = c.nodes.strings(node);
  if (node === undefined) return;
  if (values === undefined) {
    keepOtherKeys(c, node, path, ['team', 'notify'], { key: 'owner' });
    c.draft.owner.team = c.nodes.text(c.nodes.child(node, 'team'));
    c.draft.owner.notify = c.nodes.strings(c.nodes.child(node, 'notify'));
    return;
  }
  const { addresses, others } = split(values);
  const [first] = addresses;
  if (c.nodes.text(node) !== undefined && !first) c.draft.owner.team = values[0];
  else if (first) {
    c.draft.owner = { team: localPart(first), notify: addresses };
    c.log.note({ key: 'owner' }, `the team is named after the address ${first}: rename it if the team has another name`);
  }
  if (others.length > 0 && c.nodes.isList(node)) {
    c.log.placeholder(path, node, { key: 'owner' }, `${path} lists ${others.map((o) => `"${o}"`).join(', ')}, which is no e-mail address (a published page may have redacted it): placeholders are written; set owner.team to the owning team and owner.notify to whom to page (or import with --default-notify)`);
  }
}

/** A list of consumers: addresses (`- a@x`, `- [a@x]`) or registrations (`- team: ml-team ...`). */
export function readConsumerList(c: ImportContext, node: Node | null | undefined, path: string): void {
  if (node === undefined) return;
  if (!c.nodes.isList(node)) {
    c.log.error(path, node, `expected a list of consumers, each an address or { team, contact, uses }`);
    return;
  }
  c.nodes.items(node).forEach((item, i) => {
    if (c.nodes.isMap(item)) readConsumer(c, item, `${path}[${i}]`);
    else readConsumerAddresses(c, item, `${path}[${i}]`);
  });
}

function readConsumerAddresses(c: ImportContext, node: Node | null, path: string): void {
  const { addresses, others } = split(c.nodes.strings(node) ?? []);
  const [first] = addresses;
  if (first) addConsumer(c, { team: localPart(first), notify: addresses }, `the consumer team is named after the address ${first}: rename it`);
  else c.log.placeholder(path, node, { key: 'consumers' }, `a consumer is listed as ${others.map((o) => `"${o}"`).join(', ') || 'nothing'}, which is no e-mail address (a published page may have redacted it): register it under consumers as { team, notify: [address] }`);
}

/** The skill's registration: team, contact, the columns it uses; when and where it registered are comments. */
export function readConsumer(c: ImportContext, node: Node | null, path: string): void {
  const { nodes } = c;
  const team = nodes.text(nodes.child(node, 'team'));
  const contactNode = nodes.child(node, 'contact') ?? nodes.child(node, 'notify');
  const { addresses, others } = split(nodes.strings(contactNode) ?? []);
  const name = team ?? (addresses[0] === undefined ? undefined : localPart(addresses[0]));
  if (name === undefined) {
    c.log.placeholder(path, node, { key: 'consumers' }, `a consumer without team or address cannot be registered: add team: to ${path}`);
    return;
  }
  if (others.length > 0) c.log.placeholder(`${path}.contact`, contactNode, { key: 'consumers' }, `consumer ${name}'s contact ${others.map((o) => `"${o}"`).join(', ')} is no e-mail address (a published page may have redacted it): add it to the consumer's notify`);
  const columns = readUses(c, nodes.child(node, 'uses') ?? nodes.child(node, 'columns'), `${path}.uses`, name);
  addConsumer(c, { team: name, ...(addresses.length > 0 ? { notify: addresses } : {}), ...(columns.length > 0 ? { columns } : {}) });
  for (const key of ['repo', 'pipeline', 'registered']) keepAsNote(c, nodes.child(node, key), `consumer ${name} ${key}`, { key: 'consumers' });
  const need = nodes.child(node, 'sla_dependency');
  if (need !== undefined) c.log.notEnforced(`${path}.sla_dependency`, need, { key: 'consumers' }, `consumer ${name}'s own deadline "${nodes.text(need) ?? ''}"${beforeArrival(c, nodes.text(need) ?? '')} (the gate pages the owner at sla.arrival_by)`);
  keepOtherKeys(c, node, path, ['team', 'contact', 'notify', 'uses', 'columns', 'repo', 'pipeline', 'registered', 'sla_dependency'], { key: 'consumers' });
}

/** A consumer needing the data before the contract's own deadline: said, since the producer does not promise it. */
function beforeArrival(c: ImportContext, need: string): string {
  const found = /\b(\d{1,2}:[0-5]\d)(?:\s+(\S+))?/.exec(need);
  const clock = found?.[0] === undefined ? undefined : parseClockText(found[0]);
  const sla = c.draft.sla;
  if (!clock || !sla?.arrival_by || (clock.timezone ?? sla.timezone) !== sla.timezone || clock.arrivalBy >= sla.arrival_by) return '';
  return `, earlier than the contract's arrival_by ${sla.arrival_by} ${sla.timezone ?? ''}: the producer does not promise what this consumer needs`;
}

/** The columns a consumer reads, as far as the contract declares them. */
function readUses(c: ImportContext, node: Node | null | undefined, path: string, team: string): string[] {
  const names = c.nodes.strings(node) ?? [];
  const declared = new Set(c.draft.schema.columns.map((col) => col.name));
  const unknown = names.filter((n) => !declared.has(n));
  if (unknown.length > 0) c.log.notEnforced(path, node, { key: 'consumers' }, `consumer ${team} uses ${unknown.join(', ')}, which the schema does not declare`);
  return names.filter((n) => declared.has(n));
}

function addConsumer(c: ImportContext, consumer: DraftConsumer, note?: string): void {
  (c.draft.consumers ??= []).push(consumer);
  if (note) c.log.note({ key: 'consumers' }, note);
}
