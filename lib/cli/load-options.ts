import { DEFAULT_FORMATS, type ContractDefaults, type LoadOptions } from '../contract/contract-defaults.js';
import type { DataFormat } from '../contract/model.js';
import { GateError } from '../errors.js';

/** The `--default-notify` / `--default-format` values of validate, lint and check-compat. */
export interface DefaultOptionValues {
  readonly 'default-notify'?: string;
  readonly 'default-format'?: string;
}

/** The loader's defaults from the command line; refused here, where the mistake was typed. */
export function loadOptionsFrom(values: DefaultOptionValues): LoadOptions {
  const defaults: { -readonly [K in keyof ContractDefaults]: ContractDefaults[K] } = {};
  const notify = values['default-notify'];
  if (notify !== undefined) defaults.notify = notifyList(notify);
  const format = values['default-format'];
  if (format !== undefined) defaults.format = dataFormat(format);
  return Object.keys(defaults).length === 0 ? {} : { defaults };
}

function notifyList(text: string): string[] {
  const addresses = text.split(',').map((a) => a.trim()).filter((a) => a.length > 0);
  if (addresses.length === 0) throw new GateError('bad_arguments', `--default-notify must list at least one address, e.g. --default-notify data-oncall@example.com,owner@example.com; found "${text}"`);
  return addresses;
}

function dataFormat(text: string): DataFormat {
  const format = DEFAULT_FORMATS.find((f) => f === text);
  if (!format) throw new GateError('bad_arguments', `--default-format must be one of ${DEFAULT_FORMATS.join(', ')}, not "${text}"`);
  return format;
}
