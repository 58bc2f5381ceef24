import { checkPartitionTemplate, matchPartition, type PartitionValues } from '../contract/partition-template.js';
import { NAME } from '../contract/native-contract.js';

/** What a sample's folder names say: its partition template and values, and its dataset. */
export interface PartitionGuess {
  readonly template: string;
  readonly note: string;
  /** Per partition, in the order given; undefined where the folder does not fit the template. */
  readonly values: readonly (PartitionValues | undefined)[];
}

const KEY_VALUE = /^[A-Za-z_][A-Za-z0-9_]*=[^=]+$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const HOUR = /^([01]\d|2[0-3])$/;
const DEFAULT_TEMPLATE = 'dt={ds}';

/** The trailing `key=value` folders of a path: `a/b/dt=2026-11-29/hr=06` → `[dt=…, hr=06]`. */
export function partitionSegments(path: string): string[] {
  const parts = path.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  let start = parts.length;
  while (start > 0 && KEY_VALUE.test(parts[start - 1]!)) start--;
  return parts.slice(start);
}

/**
 * `dt=2026-11-29` → `dt={ds}`, `dt=…/hr=06` → `dt={ds}/hr={hh}`; a value that is the same in
 * every sample stays a literal. Samples whose folders say no one template get the default,
 * with a TODO, since the gate refuses a drop whose path does not fit.
 */
export function guessPartition(dirs: readonly string[]): PartitionGuess {
  const segments = dirs.map(partitionSegments);
  const templates = new Set(segments.map(templateOf));
  const [template] = templates;
  const fits = template !== undefined && templates.size === 1 && checkPartitionTemplate(template) === undefined;
  if (!fits) {
    const seen = [...new Set(segments.map((s) => s.join('/') || '(none)'))].slice(0, 3).join(', ');
    return { template: DEFAULT_TEMPLATE, note: `TODO: the sample folders (${seen}) fit no one partition template; ${DEFAULT_TEMPLATE} is a placeholder`, values: dirs.map(() => undefined) };
  }
  const values = segments.map((s) => matchPartition(template, s.join('/')));
  const example = segments[0]!.join('/');
  return { template, note: `partition: from the sample folder names (${example}${dirs.length > 1 ? ', …' : ''})`, values };
}

function templateOf(segments: readonly string[]): string {
  return segments.map((segment) => {
    const [key, value] = segment.split('=') as [string, string];
    if (DAY.test(value)) return `${key}={ds}`;
    if (HOUR.test(value) && /^(hr|hour|hh|h)$/i.test(key)) return `${key}={hh}`;
    return segment;
  }).join('/');
}

/**
 * The dataset a partition folder belongs to: the folder above its `key=value` folders, or the
 * one above that when it is the gate's `v<major>` folder (`staging/orders/v1/dt=…`).
 */
export function guessDataset(dir: string): { name?: string; major?: number } {
  const parts = dir.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  const above = parts.slice(0, parts.length - partitionSegments(dir).length);
  let folder = above.pop();
  const version = folder === undefined ? undefined : /^v(\d+)$/.exec(folder);
  if (version) folder = above.pop();
  const name = folder === undefined ? undefined : datasetName(folder);
  return { ...(name ? { name } : {}), ...(version ? { major: Number(version[1]) } : {}) };
}

/** A folder name made a dataset name: lower case, other characters as `_`, starting with a letter. */
function datasetName(folder: string): string | undefined {
  const name = folder.toLowerCase().replace(/[^a-z0-9_-]/g, '_').replace(/^[^a-z]+/, '');
  return NAME.test(name) ? name : undefined;
}
