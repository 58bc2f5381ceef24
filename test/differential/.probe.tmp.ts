import { statSync } from 'node:fs';
import { openTable } from '../../lib/formats/open-table.js';
import { localPartitionFile } from '../../lib/storage/local-files.js';
import { coerceFor } from '../../lib/checks/coerce-value.js';
const path = process.argv[2]!;
const opened = await localPartitionFile(path, statSync(path).size).open();
const table = openTable('csv', opened.source);
const coerce = coerceFor('text', { kind: 'int32' });
for await (const batch of table.batches(['c0_string', 'é1_int32'], { parse: new Map([['c0_string', { kind: 'string' }], ['é1_int32', { kind: 'int32' }]]) })) {
  const v = batch.columns.get('é1_int32')!;
  console.log(batch.rowStart, batch.rowCount, v.length, v.constructor.name, batch.parsed?.has('é1_int32'), Array.from(v as ArrayLike<unknown>).slice(0, 4), Array.from(v as ArrayLike<unknown>).slice(0, 4).map((x) => coerce(x)));
}
await opened.close();
