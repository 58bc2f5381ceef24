import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';

const FILE = 'dbt_yml_files-latest.json';

/**
 * dbt Labs' JSON Schema for property files (schema.yml), from github.com/dbt-labs/dbt-jsonschema
 * (`schemas/latest/dbt_yml_files-latest.json`, Apache-2.0). It is not vendored: material from
 * outside lives beside the project, in ../shared/dbt-jsonschema/ (with its License.md and
 * SOURCE-COMMIT), as the ODCS schema does in ../shared/odcs/; a developer may keep a copy in
 * .cache/dbt-jsonschema/ instead. Absent both, the tests that need it skip, saying so.
 */
export const DBT_JSONSCHEMA_PATH = [join('..', 'shared', 'dbt-jsonschema', FILE), join('.cache', 'dbt-jsonschema', FILE)].find((path) => existsSync(path));

/**
 * The schema compiled with ajv's draft-07 class (its `$schema`). It is written for editors, so
 * ajv's strictTypes (a `required` without `type: object` beside it) and its refusal of union
 * types are off; unknown keywords and formats are still errors.
 */
export function dbtSchemaValidator(path: string): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strictTypes: false, allowUnionTypes: true });
  return ajv.compile(JSON.parse(readFileSync(path, 'utf8')) as object);
}
