/**
 * Loads every ODCS v3 fixture of datacontract-cli with operator defaults and prints how many load
 * clean, with warnings, or are refused and why. The fixtures are not in the repository (another
 * project's files); get them into the git-ignored cache first:
 *
 *   fetch github:datacontract/datacontract-cli, then copy its tests/fixtures/**.yaml files that
 *   have `apiVersion: v3.x` and `kind: DataContract` into .cache/odcs-fixtures/ (flattened names)
 *
 * Usage: npx tsx test/odcs/odcs-fixture-census.ts [dir]   (default .cache/odcs-fixtures)
 */
import { existsSync } from 'node:fs';
import { CENSUS_DIR, formatCensus, runCensus } from './odcs-census.js';

const dir = process.argv[2] ?? CENSUS_DIR;
if (!existsSync(dir)) {
  process.stderr.write(`${dir} does not exist: copy datacontract-cli's ODCS v3 fixtures there first (see the comment at the top of this script)\n`);
  process.exit(2);
}
process.stdout.write(formatCensus(runCensus(dir)));
