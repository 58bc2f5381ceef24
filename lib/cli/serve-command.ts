import { mkdir } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { requireEmulatorPackage } from '../local/emulator-package.js';
import { startLocalGate, type LocalGate } from '../local/local-gate.js';
import { EXIT, type CliIo } from './cli-io.js';
import { DEMO_NOW } from './demo-command.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { writeServeEndpoint } from './serve-endpoint-file.js';
import { runDemo } from './serve-demo.js';

/**
 * `serve`: the whole gate on 127.0.0.1 until interrupted. `--demo` first drops the shipped good
 * and bad example partitions with the SDK and shows what the gate did with each. `--now` pins the
 * gate's clock (decisions, freshness, the SLA probe), to replay data made for another day.
 */
export async function serveCommand(args: string[], io: CliIo, signals: AbortSignal = interruptSignal()): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '4566' },
      dir: { type: 'string', default: './.lake' },
      contracts: { type: 'string', default: './contracts' },
      bucket: { type: 'string', default: 'lake' },
      demo: { type: 'boolean', default: false },
      now: { type: 'string' },
      'default-notify': { type: 'string' },
      'default-format': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new GateError('bad_arguments', `--port must be a port number, not "${values.port}"`);
  // Before the lake directory is made: an install without the emulator leaves nothing behind.
  requireEmulatorPackage('contract-gate serve');
  // Frozen, as validate's --now is, so a replay decides the same way however long it runs.
  const fixed = values.now === undefined ? undefined : parseNow(values.now);
  const loadOptions = loadOptionsFrom(values);
  await mkdir(values.dir, { recursive: true });
  const print = (line: string) => io.stdout(`${line}\n`);
  // The demo's example data is from 2026-11-29; while it runs, the gate's clock is that next morning.
  let pinned: number | undefined;
  const clock = () => pinned ?? fixed ?? Date.now();
  const gate = await startLocalGate({ dir: values.dir, contractsDir: values.contracts, bucket: values.bucket, port, print, clock, loadOptions });
  const endpointFile = await writeServeEndpoint(values.dir, { endpoint: gate.endpoint, bucket: gate.bucket }).catch(async (error: unknown) => {
    await gate.stop();
    throw error;
  });
  printWelcome(gate, values.dir, print);
  if (fixed !== undefined) print(`  the gate's clock is pinned at ${new Date(fixed).toISOString()} (--now)`);
  try {
    if (values.demo) {
      pinned = Date.parse(DEMO_NOW);
      await runDemo(gate, values.contracts, print);
      pinned = undefined;
    }
    if (!signals.aborted) await new Promise((resolve) => signals.addEventListener('abort', resolve, { once: true }));
  } finally {
    print('stopping the local gate');
    await endpointFile.remove();
    await gate.stop();
  }
  return EXIT.ok;
}

function printWelcome(gate: LocalGate, dir: string, print: (line: string) => void): void {
  print(`contract-gate: local gate on ${gate.endpoint}, bucket "${gate.bucket}", data and notifications under ${dir}`);
  print(`  drop a partition:  npx contract-gate drop --contract contracts/orders.v1.yaml <dir>/dt=YYYY-MM-DD --to s3://${gate.bucket} --endpoint ${gate.endpoint}`);
  print(`  or any S3 client:  aws --endpoint-url ${gate.endpoint} s3 ls s3://${gate.bucket}/ --recursive`);
  print(`  the lake's status: ${gate.endpoint}/_gate/ (or write it to a file: npx contract-gate status --from ${dir} --out status.html)`);
  print(`  register a contract: npx contract-gate publish <contract.yaml> --to s3://${gate.bucket} --endpoint ${gate.endpoint} (enforced on the next drop)`);
  print('  stop with Ctrl-C');
}

function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
  return controller.signal;
}
