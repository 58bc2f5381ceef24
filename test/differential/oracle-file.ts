import type { SpecContract } from './contract-spec.js';
import { csvView } from './csv-view.js';
import type { FileView } from './file-view.js';
import { jsonlView } from './jsonl-view.js';
import { parquetView } from './parquet-view.js';

/** How the oracle sees one file of the partition, by the contract's format. */
export function viewFile(contract: SpecContract, path: string): Promise<FileView> {
  switch (contract.format) {
    case 'parquet': return parquetView(contract, path);
    case 'csv': return csvView(contract, path);
    case 'jsonl': return jsonlView(contract, path);
  }
}
