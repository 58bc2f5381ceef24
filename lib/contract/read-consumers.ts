import type { Node } from 'yaml';
import type { Consumer } from './model.js';
import type { YamlReader } from './yaml-reader.js';

/** `consumers:` — the teams that read the dataset, how to reach them, and which columns they use. */
export function readConsumers(reader: YamlReader, node: Node | null, declared: ReadonlySet<string>): Consumer[] | undefined {
  const items = reader.items(node, 'consumers');
  if (!items) return undefined;
  const consumers: Consumer[] = [];
  for (const [i, item] of items.entries()) {
    const path = `consumers[${i}]`;
    const entries = reader.map(item, path, ['team', 'notify', 'columns']);
    if (!entries) continue;
    const team = readOr(reader.field(entries, item, path, 'team', true), (n) => reader.string(n, `${path}.team`));
    const notify = readOr(reader.field(entries, item, path, 'notify'), (n) => reader.stringList(n, `${path}.notify`)) ?? [];
    const columnsNode = reader.field(entries, item, path, 'columns');
    const columns = readOr(columnsNode, (n) => reader.stringList(n, `${path}.columns`)) ?? [];
    for (const [j, column] of columns.entries()) {
      if (!declared.has(column)) reader.report('unknown_column', `${path}.columns[${j}]`, columnsNode, `"${column}" is not a column of schema.columns`);
    }
    if (team !== undefined) consumers.push({ team, notify, columns });
  }
  return consumers;
}

function readOr<T>(node: Node | null | undefined, read: (node: Node | null) => T | undefined): T | undefined {
  return node === undefined ? undefined : read(node);
}
