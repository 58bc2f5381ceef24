import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Apache parquet-testing files beside the project (see ../shared/README.md); absent in a plain clone. */
export const CORPUS_DATA = fileURLToPath(new URL('../../../shared/corpus/parquet-testing/data', import.meta.url));

export function corpusPresent(): boolean {
  return existsSync(CORPUS_DATA);
}

/** Every `.parquet` file below the corpus's data folder, as paths relative to it, in name order. */
export function corpusFiles(dir = CORPUS_DATA): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return corpusFiles(path);
    return name.endsWith('.parquet') ? [relative(CORPUS_DATA, path)] : [];
  });
}
