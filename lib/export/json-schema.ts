import type { NumberText } from './json-text.js';

/** A bound as the export prints it: see exact-number.ts and json-text.ts. */
export type JsonBound = number | bigint | NumberText;

/** The subset of JSON Schema 2020-12 the export writes. */
export interface JsonSchema {
  $schema?: string;
  $comment?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  enum?: (string | number | boolean | null)[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: JsonBound;
  maximum?: JsonBound;
  default?: string | number | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  not?: JsonSchema;
  'x-contract-gate'?: Record<string, unknown>;
}

export type Keywords = Omit<JsonSchema, 'type'>;
