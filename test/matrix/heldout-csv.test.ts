import { HELDOUT_CSV_CASES } from './heldout-csv-cases.js';
import { describeHeldoutMatrix } from './heldout-suite.js';

// CSV as DuckDB's COPY writes it with every option and as Python's csv module writes it in every
// quoting mode, each case's contract declaring the dialect under `produces.csv`.
describeHeldoutMatrix('csv', HELDOUT_CSV_CASES);
