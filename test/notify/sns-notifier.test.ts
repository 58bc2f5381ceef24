import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SNSClient } from '@aws-sdk/client-sns';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GateError } from '../../lib/errors.js';
import type { Notice } from '../../lib/notify/notifier.js';
import { snsNotifier } from '../../lib/notify/sns-notifier.js';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:contract-gate';
const XMLNS = 'http://sns.amazonaws.com/doc/2010-03-31/';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly form: URLSearchParams;
}
interface Answer {
  readonly status: number;
  readonly xml: string;
}

const published: Answer = {
  status: 200,
  xml: `<PublishResponse xmlns="${XMLNS}"><PublishResult><MessageId>94f20ce6-13c5-43a0-9a9e-ca52d816e90b</MessageId></PublishResult><ResponseMetadata><RequestId>f187a3c1-376f-11df-8963-01868b7c937a</RequestId></ResponseMetadata></PublishResponse>`,
};

function errorAnswer(status: number, type: 'Sender' | 'Receiver', code: string, message: string): Answer {
  return {
    status,
    xml: `<ErrorResponse xmlns="${XMLNS}"><Error><Type>${type}</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>9dd01905-5012-5f99-8663-4b3ecd0dfaef</RequestId></ErrorResponse>`,
  };
}

const notice: Notice = {
  subject: 'orders v1 dt=2026-11-30 quarantined',
  body: 'Partition dt=2026-11-30 of orders v1 failed 2 checks.\nSee the report.',
  attributes: { contract: 'orders', version: '1.0.0', owner: 'team-orders', outcome: 'quarantined', severity: 'critical', partition: 'dt=2026-11-30' },
};

/** A loopback SNS: records each request and answers with whatever `answer` holds. */
let server: Server;
let endpoint: string;
let received: Received[] = [];
let answer: Answer = published;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, form });
      response.writeHead(answer.status, { 'content-type': 'text/xml' }).end(answer.xml);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // The SDK keeps sockets alive; without this close() waits for them to time out.
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ENV_KEYS = ['AWS_ENDPOINT_URL_SNS', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION', 'AWS_PROFILE'];
let savedEnv: Record<string, string | undefined> = {};

beforeEach(() => {
  received = [];
  answer = published;
  savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, { AWS_ENDPOINT_URL_SNS: endpoint, AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'test-secret', AWS_REGION: 'eu-west-1' });
});

afterEach(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** The Query protocol lists attributes as `MessageAttributes.entry.N.*`; keyed by name here. */
function attributesOf(form: URLSearchParams): Record<string, { DataType: string | null; StringValue: string | null }> {
  const attributes: Record<string, { DataType: string | null; StringValue: string | null }> = {};
  for (let n = 1; form.has(`MessageAttributes.entry.${n}.Name`); n++) {
    const prefix = `MessageAttributes.entry.${n}`;
    attributes[form.get(`${prefix}.Name`)!] = {
      DataType: form.get(`${prefix}.Value.DataType`),
      StringValue: form.get(`${prefix}.Value.StringValue`),
    };
  }
  return attributes;
}

describe('snsNotifier', () => {
  it('publishes one signed Query-protocol Publish per notice to the endpoint in AWS_ENDPOINT_URL_SNS', async () => {
    await snsNotifier({ topicArn: TOPIC }).notify(notice);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/sns\/aws4_request/);
    const { form } = request!;
    expect(form.get('Action')).toBe('Publish');
    expect(form.get('Version')).toBe('2010-03-31');
    expect(form.get('TopicArn')).toBe(TOPIC);
    expect(form.get('Subject')).toBe(notice.subject);
    expect(form.get('Message')).toBe(notice.body);
  });

  it('sends every attribute as a String message attribute so subscribers can filter on it', async () => {
    await snsNotifier({ topicArn: TOPIC }).notify(notice);
    expect(attributesOf(received[0]!.form)).toEqual({
      contract: { DataType: 'String', StringValue: 'orders' },
      version: { DataType: 'String', StringValue: '1.0.0' },
      owner: { DataType: 'String', StringValue: 'team-orders' },
      outcome: { DataType: 'String', StringValue: 'quarantined' },
      severity: { DataType: 'String', StringValue: 'critical' },
      partition: { DataType: 'String', StringValue: 'dt=2026-11-30' },
    });
  });

  it('leaves out the partition attribute when the notice has no partition', async () => {
    const { partition: _, ...attributes } = notice.attributes;
    await snsNotifier({ topicArn: TOPIC }).notify({ ...notice, attributes: { ...attributes, outcome: 'stale', severity: 'warning' } });
    const sent = attributesOf(received[0]!.form);
    expect(Object.keys(sent).sort()).toEqual(['contract', 'outcome', 'owner', 'severity', 'version']);
    expect(sent.outcome).toEqual({ DataType: 'String', StringValue: 'stale' });
  });

  it('sends a long multi-line subject as one line of at most 100 characters ending in an ellipsis', async () => {
    const subject = `orders v1 quarantined\r\n\tbecause ${'column amount is negative; '.repeat(10)}`;
    await snsNotifier({ topicArn: TOPIC }).notify({ ...notice, subject });
    const sent = received[0]!.form.get('Subject')!;
    expect(sent).not.toMatch(/[\p{Cc}]/u);
    expect([...sent].length).toBeLessThanOrEqual(100);
    expect(sent).toMatch(/^orders v1 quarantined because column amount is negative; .*…$/);
  });

  it('never cuts a subject between the two halves of a surrogate pair', async () => {
    await snsNotifier({ topicArn: TOPIC }).notify({ ...notice, subject: '🚨'.repeat(120) });
    const sent = received[0]!.form.get('Subject')!;
    expect(sent).toBe(`${'🚨'.repeat(99)}…`);
  });

  it('keeps a subject of exactly 100 characters whole', async () => {
    const subject = 'x'.repeat(100);
    await snsNotifier({ topicArn: TOPIC }).notify({ ...notice, subject });
    expect(received[0]!.form.get('Subject')).toBe(subject);
  });

  it('throws notify_failed with the topic and the SNS error when SNS answers InternalError', async () => {
    answer = errorAnswer(500, 'Receiver', 'InternalError', 'Internal failure');
    // One attempt: the SDK would otherwise back off and retry the 500, slowing the test.
    const notifier = snsNotifier({ topicArn: TOPIC, client: new SNSClient({ maxAttempts: 1 }) });
    const error = await notifier.notify(notice).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GateError);
    expect(error).toMatchObject({ code: 'notify_failed', context: { topicArn: TOPIC } });
    expect((error as GateError).message).toContain(TOPIC);
    expect((error as GateError).cause).toMatchObject({ name: 'InternalErrorException', $metadata: { httpStatusCode: 500 } });
    expect(received).toHaveLength(1);
  });

  it('throws notify_failed when SNS refuses the credentials with AuthorizationError', async () => {
    answer = errorAnswer(403, 'Sender', 'AuthorizationError', 'User is not authorized to perform: SNS:Publish');
    const error = await snsNotifier({ topicArn: TOPIC }).notify(notice).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GateError);
    expect(error).toMatchObject({ code: 'notify_failed', context: { topicArn: TOPIC } });
    expect((error as GateError).message).toMatch(/not authorized/);
    expect((error as GateError).cause).toMatchObject({ name: 'AuthorizationErrorException' });
  });
});
