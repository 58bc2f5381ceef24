import { BLOB, BOOLEAN, DuckDBBlobValue, DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';

/** @duckdb/node-api decodes VARCHAR with a default TextDecoder, which drops a leading U+FEFF. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * `js_pattern_matches(pattern, encode(value))` in DuckDB: the README's pattern semantics exactly, a
 * JavaScript RegExp with the `u` flag that matches anywhere unless anchored. DuckDB's own
 * regexp_matches is RE2, whose `.` takes `\r` and whose `\s` is ASCII only, so it would be a
 * second opinion rather than the documented one. The value comes as bytes (see `utf8`).
 */
export function registerJsPatternFunction(connection: DuckDBConnection): void {
  const compiled = new Map<string, RegExp>();
  connection.registerScalarFunction(DuckDBScalarFunction.create({
    name: 'js_pattern_matches',
    returnType: BOOLEAN,
    parameterTypes: [VARCHAR, BLOB],
    mainFunction: (_info, input, output) => {
      const patterns = input.getColumnVector(0);
      const values = input.getColumnVector(1);
      for (let row = 0; row < input.rowCount; row++) {
        const pattern = patterns.getItem(row) as string;
        const bytes = values.getItem(row) as DuckDBBlobValue | null;
        const value = bytes === null ? null : utf8.decode(bytes.bytes);
        let regex = compiled.get(pattern);
        if (!regex) compiled.set(pattern, (regex = new RegExp(pattern, 'u')));
        output.setItem(row, value === null ? null : regex.test(value));
      }
      output.flush();
    },
  }));
}
