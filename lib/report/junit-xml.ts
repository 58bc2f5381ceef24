/**
 * JUnit XML as CI test views read it (GitLab, Jenkins, Azure, GitHub test-report actions): a
 * `<testsuites>` root, one `<testsuite>` per thing judged, one `<testcase>` per check. Pass is an
 * empty testcase; a fail holds one `<failure message type>` with the details as its text.
 */
export interface JunitCase {
  readonly classname: string;
  readonly name: string;
  readonly failure?: { readonly message: string; readonly type: string; readonly text: string };
  /** Shown beside a passing case, e.g. why it passed. */
  readonly output?: string;
}

export interface JunitSuite {
  readonly name: string;
  readonly timestamp?: string;
  readonly properties: readonly (readonly [string, string])[];
  readonly cases: readonly JunitCase[];
}

export function formatJunit(name: string, suites: readonly JunitSuite[]): string {
  const cases = suites.flatMap((s) => s.cases);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${attributes({ name, tests: cases.length, failures: failures(cases), errors: 0 })}>`];
  for (const suite of suites) lines.push(...suiteLines(suite));
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function suiteLines(suite: JunitSuite): string[] {
  const head = { name: suite.name, tests: suite.cases.length, failures: failures(suite.cases), errors: 0, skipped: 0, ...(suite.timestamp ? { timestamp: suite.timestamp } : {}) };
  const properties = suite.properties.map(([name, value]) => `      <property${attributes({ name, value })}/>`);
  return [
    `  <testsuite${attributes(head)}>`,
    ...(properties.length > 0 ? ['    <properties>', ...properties, '    </properties>'] : []),
    ...suite.cases.map(caseXml),
    '  </testsuite>',
  ];
}

function caseXml(testcase: JunitCase): string {
  const open = `    <testcase${attributes({ classname: testcase.classname, name: testcase.name })}`;
  if (testcase.failure) {
    const { message, type, text } = testcase.failure;
    return `${open}>\n      <failure${attributes({ message, type })}>${xmlText(text)}</failure>\n    </testcase>`;
  }
  if (testcase.output) return `${open}>\n      <system-out>${xmlText(testcase.output)}</system-out>\n    </testcase>`;
  return `${open}/>`;
}

function failures(cases: readonly JunitCase[]): number {
  return cases.filter((c) => c.failure).length;
}

function attributes(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values).map(([key, value]) => ` ${key}="${xmlAttribute(String(value))}"`).join('');
}

/**
 * XML 1.0 cannot carry NUL, most C0 controls, U+FFFE/U+FFFF or an unpaired surrogate, not even
 * as a character reference, and data values can hold any of them: they are written as a
 * visible \uXXXX instead, so the document stays well-formed and the reader still sees them.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visible(text: string): string {
  return text.replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * Element text: `>` is escaped too, so a `]]>` in data cannot end anything, and a carriage
 * return is a reference, which parsers would otherwise turn into a line feed.
 */
export function xmlText(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** An attribute value: quotes, and tab and line feed as references, which parsers would otherwise turn into spaces. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}
