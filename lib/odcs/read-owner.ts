import { isSeq, type Node } from 'yaml';
import { reportDefaultUsed, type ContractDefaults } from '../contract/contract-defaults.js';
import type { Contract } from '../contract/model.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { readCustom, type CustomValues } from './custom-properties.js';
import { MEMBER_KEYS, TEAM_KEYS } from './odcs-keys.js';
import { odcsEntries, odcsItems, optional, peek } from './odcs-nodes.js';

/**
 * The owner: `team.name` (or `contractGate.team`) and whom to page: `contractGate.notify`, else the
 * members whose username is an e-mail address. A member with a `dateOut` has left the team —
 * ODCS records successions that way — and is not paged.
 */
export function readOwner(reader: YamlReader, top: Entries, root: Node | null, custom: CustomValues, defaults: ContractDefaults = {}): Contract['owner'] | undefined {
  const teamNode = top.get('team')?.value;
  const { name, named, members } = teamNode === undefined ? { named: false, members: [] } : readTeam(reader, teamNode);
  const legacy = isSeq(reader.resolve(teamNode));
  const given = readCustom(custom, 'team', (n, p) => reader.string(n, p)) ?? name;
  const team = given ?? (custom.has('team') || named ? undefined : teamFallback(reader, top, teamNode ?? root, defaults));
  const listed = readCustom(custom, 'notify', (n, p) => {
    const addresses = reader.stringList(n, p);
    if (addresses?.length === 0) reader.report('invalid_value', p, n, 'expected at least one address to page');
    return addresses;
  });
  const found = listed ?? (custom.has('notify') ? [] : members.filter((m) => m.current && m.username.includes('@')).map((m) => m.username));
  const notify = found.length === 0 && !custom.has('notify') && defaults.notify?.length ? [...defaults.notify] : found;
  if (notify !== found) reportDefaultUsed(reader, teamNode === undefined ? 'team' : 'team.members', teamNode ?? root, `[${notify.join(', ')}]`, 'no current team member has an e-mail username and contractGate.notify is not set');
  if (team === undefined && !custom.has('team') && !named) {
    reader.report('missing_key', teamNode === undefined || legacy ? 'team' : 'team.name', teamNode ?? root, 'contract-gate needs the owner team: set team.name (or the custom property contractGate.team)');
  }
  if (notify.length === 0 && !custom.has('notify')) {
    reader.report('missing_key', teamNode === undefined ? 'team' : 'team.members', teamNode ?? root, `contract-gate needs an address to page on failures: ${teamNode === undefined ? 'there is no team' : 'no current team member has an e-mail username'}; list addresses in the custom property contractGate.notify, or load it with default addresses (--default-notify)`);
  }
  return team !== undefined && notify.length > 0 ? { team, notify } : undefined;
}

/** The owner label when a caller pages default addresses and the contract names no team. */
export const UNASSIGNED_TEAM = 'unassigned';

/**
 * ODCS does not require a team. The caller's default team, else the contract's `dataProduct` or
 * `domain`, which name who answers for it, stand in — with a warning. When the caller supplies
 * the addresses to page, those people own the contract in effect and the label is "unassigned":
 * the team is only a label in notices, and whom to page is what the gate cannot do without.
 */
function teamFallback(reader: YamlReader, top: Entries, node: Node | null, defaults: ContractDefaults): string | undefined {
  const product = peek(reader, top.get('dataProduct')?.value);
  const domain = peek(reader, top.get('domain')?.value);
  const [team, source] = defaults.team ? [defaults.team, 'the caller\'s default team']
    : typeof product === 'string' && product !== '' ? [product, 'its dataProduct']
      : typeof domain === 'string' && domain !== '' ? [domain, 'its domain']
        : defaults.notify?.length ? [UNASSIGNED_TEAM, 'as the caller supplies the addresses to page'] : [];
  if (team !== undefined) reader.report('default_used', 'team', node, `the contract names no owner team (team.name or contractGate.team); the owner is "${team}", ${source}`, 'warning');
  return team;
}

interface Member {
  readonly username: string;
  readonly current: boolean;
}

/** `team` is an object since v3.1.0; before, a plain list of members, which is still accepted. */
function readTeam(reader: YamlReader, node: Node | null): { name?: string; named: boolean; members: Member[] } {
  if (isSeq(reader.resolve(node))) {
    const items = reader.items(node, 'team') ?? [];
    return { named: false, members: items.map((item, i) => readMember(reader, item, `team[${i}]`)).filter((m): m is Member => m !== undefined) };
  }
  const entries = odcsEntries(reader, node, 'team', TEAM_KEYS);
  if (!entries) return { named: true, members: [] }; // not a mapping: reported, and not a second time
  const name = optional(entries, 'name', (n) => reader.string(n, 'team.name'));
  const members = odcsItems(reader, entries, 'team', 'members').map((m) => readMember(reader, m.node, m.path)).filter((m): m is Member => m !== undefined);
  return { name, named: entries.has('name'), members };
}

function readMember(reader: YamlReader, node: Node | null, path: string): Member | undefined {
  const entries = odcsEntries(reader, node, path, MEMBER_KEYS);
  if (!entries) return undefined;
  if (!entries.has('username')) reader.report('missing_key', `${path}.username`, node, 'missing required key "username"');
  const username = optional(entries, 'username', (n) => reader.string(n, `${path}.username`));
  return username === undefined ? undefined : { username, current: !entries.has('dateOut') };
}
