import { checkPartitionTemplate } from '../contract/partition-template.js';

/** How older pipelines wrote the partition's date and hour: Airflow macros, format strings, words. */
const DATE = /\{\{\s*ds\s*\}\}|YYYY-MM-DD|yyyy-MM-dd|%Y-%m-%d|\{(?:date|dt|ds|yyyy-mm-dd)\}/g;
const HOUR = /\{\{\s*(?:hh|hour)\s*\}\}|%H|\{(?:hh|hour|HH)\}|(?<==)HH\b/g;

/** A legacy partition text as a native template, or the reason it cannot be one. */
export function nativePartition(text: string): { template: string } | { problem: string } {
  const template = text.trim().replace(/^\/+|\/+$/g, '').replace(DATE, '{ds}').replace(HOUR, '{hh}');
  const problem = checkPartitionTemplate(template);
  return problem ? { problem: `"${text}" read as "${template}": ${problem}` } : { template };
}
