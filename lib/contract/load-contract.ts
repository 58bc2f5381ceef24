import { isOdcsDocument, readOdcsContract } from '../odcs/from-odcs.js';
import { readNativeContract, type LoadResult } from './native-contract.js';
import { YamlReader } from './yaml-reader.js';

export type { LoadResult } from './native-contract.js';

/**
 * Parses and validates a contract, in this project's format or as an Open Data Contract Standard
 * v3 document, which has its own mapping onto the same Contract. Never throws for a bad contract:
 * every problem is collected with its position so a producer fixes them all in one pass. `file`
 * only labels the problems.
 */
export function parseContract(text: string, file: string): LoadResult {
  const reader = new YamlReader(text, file);
  return isOdcsDocument(reader) ? readOdcsContract(reader) : readNativeContract(reader);
}
