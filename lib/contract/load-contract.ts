import { isOdcsDocument, readOdcsContract } from '../odcs/from-odcs.js';
import type { LoadOptions } from './contract-defaults.js';
import { readNativeContract, type LoadResult } from './native-contract.js';
import { YamlReader } from './yaml-reader.js';

export type { LoadResult } from './native-contract.js';
export type { ContractDefaults, LoadOptions } from './contract-defaults.js';

/**
 * Parses and validates a contract, in this project's format or as an Open Data Contract Standard
 * v3 document, which has its own mapping onto the same Contract. Never throws for a bad contract:
 * every problem is collected with its position so a producer fixes them all in one pass. `file`
 * only labels the problems. `options.defaults` fills operational settings the file leaves out
 * (see contract-defaults.ts), each with a warning.
 */
export function parseContract(text: string, file: string, options: LoadOptions = {}): LoadResult {
  const reader = new YamlReader(text, file);
  return isOdcsDocument(reader) ? readOdcsContract(reader, options) : readNativeContract(reader, options);
}
