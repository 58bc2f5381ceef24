import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatTextReport } from '../report/text-report.js';
import { EXIT, type CliIo } from './cli-io.js';
import { COMMAND_HELP } from './usage.js';
import { runValidation } from './validate-command.js';

/** The examples hold orders of 2026-11-29; the demo checks them as the gate would have next morning. */
export const DEMO_NOW = '2026-11-30T05:00:00Z';

const EXAMPLES = [
  { label: 'good', dir: 'contracts/examples/orders/good/dt=2026-11-29' },
  { label: 'duckdb', dir: 'contracts/examples/orders/duckdb/dt=2026-11-29' },
  { label: 'bad', dir: 'contracts/examples/orders/bad/dt=2026-11-29' },
];

/** `demo`: validates the shipped partitions (good, good as DuckDB wrote it, bad) and prints each verdict. */
export async function demoCommand(args: string[], io: CliIo): Promise<number> {
  // It takes nothing; parsing still refuses a stray option instead of ignoring it.
  parseArgs({ args, options: COMMAND_HELP.demo.options });
  const root = fileURLToPath(new URL('../../', import.meta.url).href.replace(/dist\/$/, ''));
  const contract = `${root}contracts/orders.v1.yaml`;
  io.stdout(`contract-gate demo: validating ${EXAMPLES.length} partitions against contracts/orders.v1.yaml as of ${DEMO_NOW}\n`);
  for (const example of EXAMPLES) {
    io.stdout(`\n$ contract-gate validate --contract contracts/orders.v1.yaml ${example.dir} --now ${DEMO_NOW}\n`);
    const report = await runValidation(contract, [`${root}${example.dir}`], Date.parse(DEMO_NOW), io, io.stderr);
    io.stdout(formatTextReport(report).replaceAll(root, ''));
  }
  return EXIT.ok;
}
