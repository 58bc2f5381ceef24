import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { verifyAudit, type AuditVerdict } from '../gate/audit-verify.js';
import { datasetPath } from '../gate/gate-layout.js';
import { parseLakeAddress, prefixedLake } from '../lake/lake-address.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { outputFormat } from './output-format.js';
import { AUDIT_USAGE, COMMAND_HELP } from './usage.js';

/**
 * `audit verify`: walks the owners' audit chains and reports each broken link (a record rewritten,
 * deleted, or not where it says it is). Exit 0 intact, 1 a break, 2 cannot run.
 */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.audit.options });
  const format = outputFormat(values.format);
  const [action, lakeText, ...more] = positionals;
  if (action !== 'verify') throw new GateError('bad_arguments', `${action === undefined ? 'name what to do' : `"${action}" is no audit action`}: the one there is, is verify\nusage: ${AUDIT_USAGE}`);
  if (lakeText === undefined || more.length > 0) throw new GateError('bad_arguments', `name one lake, s3://<bucket>[/<prefix>]\nusage: ${AUDIT_USAGE}`);
  const lake = parseLakeAddress(lakeText);
  if (lake.kind !== 's3') throw new GateError('bad_arguments', `"${lakeText}" is not an s3:// lake; a lake serve keeps is reached with --endpoint\nusage: ${AUDIT_USAGE}`);
  const { layout } = prefixedLake(lake.prefix);
  const client = createS3Client({ endpoint: values.endpoint });
  try {
    const store = s3ObjectStore({ client, bucket: lake.bucket });
    const scope = { ...(values.dataset === undefined ? {} : { dataset: values.dataset }), ...(values.partition === undefined ? {} : { partition: values.partition }) };
    const verdict = await verifyAudit(store, layout, scope);
    const broken = breaks(verdict) > 0;
    const exit = broken ? EXIT.violated : EXIT.ok;
    io.stdout(format === 'json' ? `${JSON.stringify({ verdict: broken ? 'broken' : 'intact', exit_code: exit, ...verdict }, null, 2)}\n` : asText(verdict, `s3://${lake.bucket}`));
    return exit;
  } finally {
    client.destroy();
  }
}

const breaks = (verdict: AuditVerdict): number => verdict.strays.length + verdict.chains.reduce((sum, chain) => sum + chain.breaks.length, 0);

function asText(verdict: AuditVerdict, where: string): string {
  const records = verdict.chains.reduce((sum, chain) => sum + chain.records, 0);
  const lines: string[] = [];
  for (const chain of verdict.chains) {
    for (const { key, problem, expected } of chain.breaks) lines.push(`BROKEN ${where}/${key} ${problem}\n  expected: ${expected}`);
  }
  for (const { key, problem, expected } of verdict.strays) lines.push(`STRAY ${where}/${key} ${problem}\n  expected: ${expected}`);
  const chains = `${verdict.chains.length} ${verdict.chains.length === 1 ? 'chain' : 'chains'}, ${records} ${records === 1 ? 'record' : 'records'}`;
  const summary = breaks(verdict) === 0 ? `INTACT ${chains}` : `BROKEN ${breaks(verdict)} of ${chains} (${verdict.chains.filter((c) => c.breaks.length > 0).map((c) => datasetPath(c.address)).join(', ') || 'strays only'})`;
  return `${[...lines, summary].join('\n')}\n`;
}
