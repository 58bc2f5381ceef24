/**
 * A JSON number written as these exact digits, e.g. the largest decimal(38,2), which no double
 * holds: `999...9.99`. A reader with doubles rounds it as it rounds the values it compares.
 */
export class NumberText {
  constructor(readonly text: string) {}
}

/** For the yaml package's `customTags`: writes a NumberText as its digits, a plain YAML number. */
export const NUMBER_TEXT_YAML_TAG = {
  identify: (value: unknown) => value instanceof NumberText,
  default: true,
  tag: 'tag:yaml.org,2002:float',
  resolve: (text: string) => Number(text),
  stringify: (item: { value?: unknown }) => (item.value as NumberText).text,
};

/**
 * JSON.stringify, except that bigints and NumberText are written as exact number literals. int64
 * bounds such as 2^63-1 have no exact double, and JSON.stringify would print 9223372036854776000,
 * which a validator with exact integers (Python's, Java's) reads as a different bound.
 */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${MARK}${item}` : item instanceof NumberText ? `${MARK}${item.text}` : item), 2);
  // JSON.stringify escapes the NUL, so only a string that is exactly NUL, the tag and digits can collide.
  return text.replace(/"\\u0000number:(-?[0-9.]+)"/g, '$1');
}

const MARK = '\u0000number:';
