import type { ByteSource } from '../formats/byte-source.js';

/** One file of a partition, opened only when its turn comes so open handles stay few. */
export interface PartitionFile {
  /** How the file is named in the report: a path or an object key. */
  readonly path: string;
  readonly byteLength: number;
  open(): Promise<OpenedFile>;
}

export interface OpenedFile {
  readonly source: ByteSource;
  close(): Promise<void>;
}
