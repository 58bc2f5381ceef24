import type { Contract } from '../contract/model.js';
import { isoSeconds } from '../contract/temporal.js';
import { DEFAULT_LAYOUT, type GateLayout } from '../gate/gate-layout.js';
import { isExpected } from '../sla/probe.js';
import { duePartitions } from '../sla/sla-calendar.js';
import { partitionTime } from '../replay/replay-window.js';
import type { ObjectStore } from '../storage/object-store.js';
import { listPublishedRoot, listQuarantineRoot, listStagingRoot } from './lake-listing.js';
import type { DatasetStatus, LakeStatus, PartitionCell } from './lake-status.js';
import { listClaims, readNotices } from './notice-claims.js';
import { partitionCell, type CellContext } from './partition-cell.js';
import { lakeTables, type LakeTables, type PartitionTable } from './partition-table.js';
import { statusProblems } from './status-problems.js';

export interface LakeStatusOptions {
  /** Epoch ms: the page's clock, by which partitions are missed or still waiting. */
  readonly now: number;
  /** The contracts in the registry, every version: the newest of each major names the dataset's contract and calendar. */
  readonly contracts: readonly Contract[];
  /** @default DEFAULT_LAYOUT (a lake under a prefix: prefixedLake's layout) */
  readonly layout?: GateLayout;
}

const DAY = 86_400_000;
/** How far back the calendar looks for partitions that never came; older ones are history, not status. */
const CALENDAR_DAYS = 60;
const NEW_DATASET_DAYS = 2;

/**
 * The lake's status, read only from what the gate and the probe already wrote, through list,
 * head and read; nothing is written.
 *
 * Cost: one LIST of each of seven roots (published/, quarantine/, staging/, and `_gate/` sla,
 * notices, abandoned and sunset), so a lake of N objects under them takes about N / 1000 LIST
 * pages, plus a HEAD and a GET for each body read: the `_SUCCESS` or latest `_REPORT.json` of at
 * most MAX_PARTITIONS partitions per dataset major, and at most MAX_NOTICES claims. Memory stays
 * at about 2 × MAX_PARTITIONS partition summaries per dataset major and 2 × MAX_NOTICES claims,
 * however many objects are listed (see partition-table.ts). The LISTs dominate a big lake: a
 * million data files under published/ is a thousand pages, read in key order one after another.
 *
 * A record that cannot be read (not JSON, not the gate's format, a key that fits no path the gate
 * writes) is a line in `problems`; only a store that cannot be listed makes this throw.
 */
export async function readLakeStatus(store: ObjectStore, options: LakeStatusOptions): Promise<LakeStatus> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const problems = statusProblems();
  const contracts = newestOfEachMajor(options.contracts);
  const tables = lakeTables(contracts.map((c) => ({ dataset: c.name, major: c.version.major, template: c.produces.partition })));
  await listPublishedRoot(store, layout, tables);
  await listQuarantineRoot(store, layout, tables, problems);
  await listStagingRoot(store, layout, tables);
  const claims = await listClaims(store, layout, tables, problems);
  for (const contract of contracts) placeDue(tables, contract, options.now);
  const context: CellContext = { store, layout, now: options.now, problems };
  const datasets: DatasetStatus[] = [];
  for (const table of tables.all()) {
    const contract = contracts.find((c) => c.name === table.dataset && c.version.major === table.major);
    datasets.push({ dataset: table.dataset, major: table.major, ...(contract ? { contract: contractFacts(contract) } : {}), cells: await cellsOf(context, table) });
  }
  const notices = await readNotices(store, claims, problems);
  return { location: store.location, generated_at: isoSeconds(options.now), datasets, notices, problems: problems.list() };
}

async function cellsOf(context: CellContext, table: PartitionTable): Promise<PartitionCell[]> {
  const cells: PartitionCell[] = [];
  for (const summary of table.kept()) {
    const cell = await partitionCell(context, { dataset: table.dataset, major: table.major, partition: summary.partition }, summary);
    if (cell) cells.push(cell);
  }
  return cells;
}

/**
 * The calendar's partitions with deadlines in (now − CALENDAR_DAYS, now + 1 day], for a contract
 * still expected, from the dataset's first partition on: a contract registered today owes no
 * partitions of the weeks before. With none yet, as far back as the probe looks (NEW_DATASET_DAYS).
 */
function placeDue(tables: LakeTables, contract: Contract, now: number): void {
  if (!isExpected(contract, now)) return;
  const from = now - CALENDAR_DAYS * DAY;
  const table = tables.table(contract.name, contract.version.major);
  const times = table.kept().flatMap((row) => (row.time === undefined ? [] : [row.time]));
  const first = times.length > 0 ? Math.min(...times) : undefined;
  for (const due of duePartitions(contract.sla!, contract.produces.partition, { from, to: now + DAY })) {
    if (due.deadline <= from) continue;
    const time = partitionTime(contract.produces.partition, due.path);
    const owed = first === undefined ? due.deadline > now - NEW_DATASET_DAYS * DAY : time === undefined || time >= first;
    if (owed) table.at(due.path).due = due;
  }
}

function newestOfEachMajor(contracts: readonly Contract[]): Contract[] {
  const newest = new Map<string, Contract>();
  for (const contract of contracts) {
    const key = `${contract.name}/v${contract.version.major}`;
    const held = newest.get(key);
    const { minor, patch } = contract.version;
    if (!held || minor > held.version.minor || (minor === held.version.minor && patch > held.version.patch)) newest.set(key, contract);
  }
  return [...newest.values()];
}

function contractFacts(contract: Contract): NonNullable<DatasetStatus['contract']> {
  const { minRows, maxRows } = contract.sla ?? {};
  return { version: contract.version.text, owner: contract.owner.team, ...(minRows === undefined ? {} : { minRows }), ...(maxRows === undefined ? {} : { maxRows }) };
}
