import { HELDOUT_PARQUET_CASES } from './heldout-parquet-cases.js';
import { describeHeldoutMatrix } from './heldout-suite.js';

// Parquet from writers the writer matrix does not hold (parquetjs, arrow-rs given Arrow IPC with
// dictionary and large types) and DuckDB's types at their edges; CSV is in heldout-csv.test.ts.
describeHeldoutMatrix('parquet', HELDOUT_PARQUET_CASES);
