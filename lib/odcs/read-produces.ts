import type { Node } from 'yaml';
import { reportDefaultUsed, type ContractDefaults } from '../contract/contract-defaults.js';
import { checkPartitionTemplate } from '../contract/partition-template.js';
import type { Contract, DataFormat } from '../contract/model.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { readCustom, type CustomValues } from './custom-properties.js';
import { odcsEntries, odcsItems, peek, peekChild } from './odcs-nodes.js';

interface Layout {
  readonly format?: DataFormat;
  readonly partition?: string;
}

interface S3Server {
  readonly name: string;
  readonly entries: Entries;
  readonly node: Node | null;
  readonly path: string;
}

const FORMATS: Readonly<Record<string, DataFormat>> = { parquet: 'parquet', csv: 'csv', json: 'jsonl', jsonl: 'jsonl', ndjson: 'jsonl' };

/**
 * `produces` from the s3 server: its `format`, and the partition template from the `key={ds}`
 * segments that end its `location` (default dt={ds}). `contractGate.format` and
 * `contractGate.partition` say it where no server does, and win where one does.
 */
export function readProduces(reader: YamlReader, top: Entries, root: Node | null, custom: CustomValues, defaults: ContractDefaults = {}): Contract['produces'] | undefined {
  const server = chooseServer(reader, top, custom);
  const layout = server ? serverLayout(reader, server) : {};
  const stated = readCustom(custom, 'format', (n, p) => reader.oneOf(n, p, ['parquet', 'csv', 'jsonl'] as const)) ?? layout.format;
  const silent = stated === undefined && !custom.has('format') && (!server || !server.entries.has('format'));
  const where = { path: server ? `${server.path}.format` : 'servers', node: server?.node ?? top.get('servers')?.value ?? root };
  if (silent && defaults.format) reportDefaultUsed(reader, where.path, where.node, defaults.format, `the contract names no file format (${server ? 'its s3 server has none' : 'no s3 server'}, no contractGate.format)`);
  const format = stated ?? (silent ? defaults.format : undefined);
  const partition = readCustom(custom, 'partition', (n, p) => {
    const template = reader.string(n, p);
    const problem = template === undefined ? undefined : checkPartitionTemplate(template);
    if (problem) reader.report('invalid_value', p, n, problem);
    return problem ? undefined : template;
  }) ?? layout.partition ?? defaultPartition(reader, custom, where, defaults);
  if (format === undefined && silent) {
    const others = odcsItems(reader, top, '', 'servers').map((s) => peekChild(reader, s.node, 'type')).filter((t) => typeof t === 'string');
    const found = server ? 'the s3 server names no format' : others.length > 0 ? `the servers are ${[...new Set(others)].join(', ')}, none s3` : 'there is no s3 server';
    reader.report('missing_key', where.path, where.node, `contract-gate needs the file format and ${found}: add an s3 server with format parquet, csv or json, or the custom property contractGate.format, or load it with a default format (--default-format)`);
  }
  return format === undefined ? undefined : { format, partition };
}

/** The caller's template, with a warning, where neither a custom property nor a server location says one. */
function defaultPartition(reader: YamlReader, custom: CustomValues, where: { path: string; node: Node | null }, defaults: ContractDefaults): string {
  if (custom.has('partition') || defaults.partition === undefined) return 'dt={ds}';
  reportDefaultUsed(reader, where.path, where.node, `partition template "${defaults.partition}"`, 'the contract names no partition layout');
  return defaults.partition;
}

/** Several s3 servers (prod, dev) are fine while they agree; otherwise `contractGate.server` picks. */
function chooseServer(reader: YamlReader, top: Entries, custom: CustomValues): S3Server | undefined {
  const servers = odcsItems(reader, top, '', 'servers')
    .map(({ node, path }) => ({ node, path, entries: odcsEntries(reader, node, path) }))
    .filter((s): s is S3Server & { entries: Entries } => s.entries !== undefined && peek(reader, s.entries.get('type')?.value) === 's3')
    .map((s) => ({ ...s, name: String(peek(reader, s.entries.get('server')?.value) ?? '?') }));
  const wanted = readCustom(custom, 'server', (n, p) => {
    const name = reader.string(n, p);
    const found = servers.find((s) => s.name === name);
    if (name !== undefined && !found) reader.report('invalid_value', p, n, `no s3 server is named "${name}"; the s3 servers are ${servers.map((s) => `"${s.name}"`).join(', ') || 'none'}`);
    return found;
  });
  if (wanted || custom.has('server') || servers.length <= 1) return wanted ?? servers[0];
  const layouts = servers.map((s) => JSON.stringify(quietLayout(reader, s)));
  if (layouts.every((l) => l === layouts[0])) return servers[0];
  reader.report('invalid_value', 'servers', top.get('servers')?.value, `the s3 servers ${servers.map((s) => `"${s.name}"`).join(', ')} disagree on format or partitioning; name the one to check with the custom property contractGate.server`);
  return undefined;
}

function serverLayout(reader: YamlReader, server: S3Server): Layout {
  const formatNode = server.entries.get('format')?.value;
  const text = formatNode === undefined ? undefined : reader.string(formatNode, `${server.path}.format`);
  const format = text === undefined ? undefined : FORMATS[text.toLowerCase()];
  if (text !== undefined && format === undefined) {
    reader.report('invalid_value', `${server.path}.format`, formatNode, `contract-gate reads parquet, csv and json lines, not "${text}"`);
  }
  const delimiter = peek(reader, server.entries.get('delimiter')?.value);
  if (format === 'jsonl' && delimiter !== undefined && delimiter !== 'new_line') {
    reader.report('invalid_value', `${server.path}.delimiter`, server.entries.get('delimiter')?.value, `contract-gate reads json as one document per line (delimiter new_line), not "${String(delimiter)}"`);
  }
  const locationNode = server.entries.get('location')?.value;
  const location = locationNode === undefined ? undefined : reader.string(locationNode, `${server.path}.location`);
  const tail = location === undefined ? undefined : partitionTail(location);
  const problem = tail === undefined ? undefined : checkPartitionTemplate(tail);
  if (problem) reader.report('invalid_value', `${server.path}.location`, locationNode, `the partition part "${tail}" of the location: ${problem}; or set the custom property contractGate.partition`);
  return { ...(format ? { format } : {}), ...(tail && !problem ? { partition: tail } : {}) };
}

/** The layout without reporting: to compare servers before choosing one. */
function quietLayout(reader: YamlReader, server: S3Server): Layout {
  const format = peek(reader, server.entries.get('format')?.value);
  const location = peek(reader, server.entries.get('location')?.value);
  return { format: FORMATS[String(format).toLowerCase()], partition: typeof location === 'string' ? partitionTail(location) : undefined };
}

/** `s3://bucket/orders/dt={ds}/hr={hh}/*.parquet` → `dt={ds}/hr={hh}`; undefined without key=value segments. */
export function partitionTail(location: string): string | undefined {
  const segments = location.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split('/').filter((s) => s !== '');
  if (segments.length > 0 && /[*]|\.[a-z0-9]+$/i.test(segments.at(-1)!) && !segments.at(-1)!.includes('=')) segments.pop();
  const tail: string[] = [];
  while (segments.length > 0 && segments.at(-1)!.includes('=')) tail.unshift(segments.pop()!);
  return tail.length > 0 ? tail.join('/') : undefined;
}
