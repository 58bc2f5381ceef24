import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';
import { openDuckDB } from './duckdb-session.js';

/** A DuckDB session and a scratch folder for the files it writes, open while a test file (or a describe block) runs. */
export interface DuckDBScratch {
  readonly connection: DuckDBConnection;
  readonly dir: string;
  /** `name` inside the scratch folder. */
  path(name: string): string;
}

/** Opens the session and makes the folder before the block's tests, closes and removes both after them. */
export function useDuckDBScratch(prefix: string): DuckDBScratch {
  let session: Awaited<ReturnType<typeof openDuckDB>> | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    session = await openDuckDB();
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    session?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get connection() {
      if (!session) throw new Error('the DuckDB scratch is open only while its tests run');
      return session.connection;
    },
    get dir() {
      if (!dir) throw new Error('the DuckDB scratch is open only while its tests run');
      return dir;
    },
    path(name) {
      return join(this.dir, name);
    },
  };
}
