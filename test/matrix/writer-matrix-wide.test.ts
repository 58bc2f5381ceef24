import { describeWriterMatrix } from './matrix-suite.js';
import { MATRIX_TABLES } from './matrix-tables.js';

// The wide table of the writer matrix; the other tables are in writer-matrix.test.ts.
describeWriterMatrix(MATRIX_TABLES.filter((t) => t.label === 'wide'));
