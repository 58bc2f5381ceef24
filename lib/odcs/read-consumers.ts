import type { Node } from 'yaml';
import type { Consumer } from '../contract/model.js';
import type { YamlReader } from '../contract/yaml-reader.js';

/** `contractGate.consumers`: ODCS has no word for who reads a dataset and which columns. */
export function readConsumers(reader: YamlReader, node: Node | null, path: string, declares: (column: string) => boolean): Consumer[] | undefined {
  const items = reader.items(node, path);
  if (!items) return undefined;
  const consumers: Consumer[] = [];
  for (const [i, item] of items.entries()) {
    const where = `${path}[${i}]`;
    const fields = reader.map(item, where, ['team', 'notify', 'columns']);
    if (!fields) continue;
    const read = <T>(key: string, fn: (n: Node | null, p: string) => T | undefined, required = false): T | undefined => {
      const value = reader.field(fields, item, where, key, required);
      return value === undefined ? undefined : fn(value, `${where}.${key}`);
    };
    const team = read('team', (n, p) => reader.string(n, p), true);
    const notify = read('notify', (n, p) => reader.stringList(n, p)) ?? [];
    const columns = read('columns', (n, p) => reader.stringList(n, p)) ?? [];
    columns.forEach((column, j) => {
      if (!declares(column)) reader.report('unknown_column', `${where}.columns[${j}]`, fields.get('columns')?.value, `"${column}" is not a column of the dataset`);
    });
    if (team !== undefined) consumers.push({ team, notify, columns });
  }
  return consumers;
}
