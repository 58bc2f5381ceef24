import { readFileSync } from 'node:fs';
import Ajv2019 from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { parseContract } from '../../lib/contract/load-contract.js';
import { exportOdcs } from '../../lib/odcs/to-odcs.js';
const schema = JSON.parse(readFileSync('../shared/odcs/odcs-json-schema-v3.1.0.json', 'utf8'));
for (const strict of [true, false]) {
  try {
    const ajv = new Ajv2019({ strict, allErrors: true });
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:\S*$/i);
    ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T/);
    const validate = ajv.compile(schema);
    const { contract } = parseContract(readFileSync('contracts/orders.v1.yaml', 'utf8'), 'orders.v1.yaml');
    const doc = parse(exportOdcs(contract!));
    console.log('strict', strict, validate(doc), JSON.stringify(validate.errors, null, 1)?.slice(0, 2000));
    for (const f of ['all__full-example', 'data-types__all-data-types', 'quality__column-validity']) {
      console.log(f, validate(parse(readFileSync(`../shared/odcs/examples/${f}.odcs.yaml`, 'utf8'))), validate.errors?.length);
    }
  } catch (e) { console.log('strict', strict, 'compile error', (e as Error).message); }
}
