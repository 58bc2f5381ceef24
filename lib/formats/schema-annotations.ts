import type { ConvertedType, SchemaElement } from 'hyparquet';

/**
 * Writers may annotate a column with the newer LogicalType alone (the format allows it), while
 * hyparquet converts values by the older ConvertedType: such DATE and DECIMAL columns would arrive
 * as raw day counts and unscaled integers, and text as bytes. The converted type each one implies
 * is filled in once per footer, so values decode as parquet-types.ts types them. Bytes without a
 * text annotation stay bytes (the reader decodes with `utf8: false`): decoding them as UTF-8 would
 * make distinct invalid sequences equal.
 */
export function fillConvertedTypes(schema: SchemaElement[]): void {
  for (const element of schema) {
    const implied = impliedConvertedType(element);
    if (!implied) continue;
    element.converted_type = implied;
    if (implied === 'DECIMAL') filledDecimals.add(element);
    const logical = element.logical_type;
    if (logical?.type === 'DECIMAL') {
      element.precision = logical.precision;
      element.scale = logical.scale;
    }
  }
}

/**
 * Decimal leaves annotated by LogicalType alone: the footer's statistics of these were read
 * before the converted type was filled in, so they are unscaled integers, not values.
 */
export const filledDecimals = new WeakSet<SchemaElement>();

function impliedConvertedType(element: SchemaElement): ConvertedType | undefined {
  const logical = element.logical_type?.type;
  // hyparquet decodes ENUM as bytes; it is text, as UTF8 is.
  if (element.converted_type === 'ENUM' || (!element.converted_type && (logical === 'STRING' || logical === 'ENUM'))) return 'UTF8';
  if (element.converted_type) return undefined;
  if (logical === 'DATE') return 'DATE';
  if (logical === 'DECIMAL') return 'DECIMAL';
  return undefined;
}
