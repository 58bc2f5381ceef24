import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DBT_ADAPTERS } from '../../lib/export/dbt-adapters.js';
import { isEntry, OWNED, type Entry, type KeyPath } from '../../lib/export/dbt-schema-part.js';
import { exportDbt } from '../../lib/export/to-dbt.js';
import { ordersContract } from '../fixtures/partition.js';
import { generatedContracts } from './generated-contracts.js';

/** The key paths of an entry that no owned path covers: --write would never update them, --check never compare them. */
function unowned(entry: Entry, paths: readonly KeyPath[], prefix: string[] = []): string[] {
  return Object.entries(entry).flatMap(([key, value]) => {
    const path = [...prefix, key];
    const same = (owned: KeyPath, length: number) => owned.length >= length && path.every((part, at) => owned[at] === part);
    if (paths.some((owned) => owned.length === path.length && same(owned, path.length))) return [];
    if (isEntry(value) && paths.some((owned) => same(owned, path.length + 1))) return unowned(value, paths, path);
    return [path.join('.')];
  });
}

describe('what the dbt export owns in a schema.yml', () => {
  const contracts = [['orders', { ...ordersContract(), onViolation: { maxInvalidRows: 3 } }] as const, ...generatedContracts()];

  it.each(contracts.flatMap(([name, contract]) => DBT_ADAPTERS.map((adapter) => [name, adapter, contract] as const)))('covers every key the export of %s for %s writes, so --write updates it and --check compares it', (_name, adapter, contract) => {
    const file = parse(exportDbt(contract, { adapter })) as { models: Entry[]; sources: Entry[] };
    expect(Object.keys(file)).toEqual(['version', 'models', 'sources']);
    const model = file.models[0]!;
    const source = file.sources[0]!;
    expect(unowned(model, [...OWNED.model, ['columns']])).toEqual([]);
    for (const column of model['columns'] as Entry[]) expect(unowned(column, OWNED.column)).toEqual([]);
    expect(unowned(source, [...OWNED.source, ['tables']])).toEqual([]);
    for (const table of source['tables'] as Entry[]) expect(unowned(table, OWNED.table)).toEqual([]);
  });

  it('leaves the user the keys around what it writes', () => {
    const model = { name: 'orders', tags: ['x'], config: { materialized: 'table', contract: { enforced: true, alias_types: false }, meta: { owner: 'me', contract_gate: {} } } };
    expect(unowned(model, [...OWNED.model, ['columns']])).toEqual(['tags', 'config.materialized', 'config.contract.alias_types', 'config.meta.owner']);
  });
});
