import type { ObjectInfo, ObjectStore } from '../../lib/storage/object-store.js';
import type { StagedDrop, StagedFile } from './five-file-drop.js';
import { looksTorn, wholeAfterSettling } from './torn-object.js';
import type { Violations } from './violations.js';

/**
 * Checks one drop at a moment between two steps: every staged file is somewhere with its bytes
 * (ETag = MD5 of a single-part object, and size). Staging is listed before the destinations:
 * bytes only move staging → published/quarantine and copies come before deletes, so a file gone
 * from staging when it was listed must already be in a destination listed after it. The other
 * order could miss a file that moved between the two listings.
 */
export class BucketObserver {
  checks = 0;
  private running: Promise<void> | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly drop: StagedDrop,
    private readonly violations: Violations,
  ) {}

  /** Joins a check already under way (concurrent handlers) instead of stacking up more. */
  checkpoint(): Promise<void> {
    this.running ??= this.check().finally(() => (this.running = undefined));
    return this.running;
  }

  private async check(): Promise<void> {
    this.checks += 1;
    const seen = await this.look();
    for (const file of this.drop.files) {
      const copies = seen.filter((o) => isHome(o.key, this.drop, file));
      if (copies.some((o) => holds(o, file))) continue;
      const where = `${file.key} at checkpoint ${this.checks}`;
      // A copy caught mid-rewrite is the emulator's doing if it is whole a moment later.
      if (copies.some((o) => looksTorn(o, file.bytes.length)) && (await wholeAfterSettling(async () => (await this.look()).some((o) => isHome(o.key, this.drop, file) && holds(o, file))))) {
        this.violations.add('torn-read', `${where}: listed mid-write, whole a moment later`);
      } else {
        this.violations.add('bytes-kept', `${where}: nowhere with its bytes (seen: ${copies.map((o) => `${o.key} ${o.size} ${o.etag}`).join(', ') || 'nothing'})`);
      }
    }
  }

  /** Staging first, then the destinations (see above). */
  private async look(): Promise<ObjectInfo[]> {
    const { partition, prefix } = this.drop;
    const staged = await listed(this.store, prefix);
    return [...staged, ...(await listed(this.store, `published/orders/v${this.drop.major}/${partition}/`)), ...(await listed(this.store, `quarantine/orders/v${this.drop.major}/${partition}/`))];
  }
}

function holds(object: ObjectInfo, file: StagedFile): boolean {
  return object.etag === file.md5 && object.size === file.bytes.length;
}

/** Where a staged file may be: its staging key, published/<relative>, quarantine/<attempt>/<relative>. */
function isHome(key: string, drop: StagedDrop, file: StagedFile): boolean {
  return key === file.key || key === `published/orders/v${drop.major}/${drop.partition}/${file.relative}` || isQuarantineCopy(key, drop, file.relative);
}

/** quarantine/<dataset>/v<major>/<partition>/<attempt>/<relative> */
export function isQuarantineCopy(key: string, drop: StagedDrop, relative: string): boolean {
  const prefix = `quarantine/orders/v${drop.major}/${drop.partition}/`;
  if (!key.startsWith(prefix) || !key.endsWith(`/${relative}`)) return false;
  const attempt = key.slice(prefix.length, key.length - relative.length - 1);
  return attempt.length > 0 && !attempt.includes('/');
}

export async function listed(store: ObjectStore, prefix: string): Promise<ObjectInfo[]> {
  const objects: ObjectInfo[] = [];
  for await (const object of store.list(prefix)) objects.push(object);
  return objects;
}
