// A TypeScript SDK v2 (@modelcontextprotocol/client) client against a
// fastmcp server, in either protocol era.
//
//   node v2client.mjs [--era legacy|modern|auto] stdio -- <server command> [args...]
//   node v2client.mjs [--era legacy|modern|auto] http <url>
//   node v2client.mjs sse <url>
//
// --era legacy (the SDK's default) is the 2025 initialize handshake; modern
// pins 2026-07-28 (server/discover, per-request _meta, input_required
// results); auto probes and must land on modern, since fastmcp speaks it.
// Prints one line per check and exits non-zero when any fails.

import { Client, StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { Checks, assert, tap, parseArgs } from './lib.mjs';
import { everythingSuite, helloSuite, samplingAnswer, elicitationAnswer, rootsAnswer } from './suite.mjs';

const { opts, pos } = parseArgs(process.argv.slice(2));
const [kind, ...rest] = pos;
const era = opts.era || 'legacy';

function makeTransport() {
  switch (kind) {
    case 'stdio':
      return new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(rest[0]));
    case 'sse':
      return new SSEClientTransport(new URL(rest[0]));
    default:
      console.error('usage: v2client.mjs [--era legacy|modern|auto] stdio -- cmd args... | http URL | sse URL');
      process.exit(2);
  }
}

const mode = era === 'modern' ? { pin: '2026-07-28' } : era;
const t = new Checks(`ts-sdk-v2 client (${era}) over ${kind}`);
const transport = tap(makeTransport(), t.wire);
const client = new Client(
  { name: 'interop-ts-v2', version: '1.0.0' },
  {
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
    versionNegotiation: { mode },
    enforceStrictCapabilities: true,
  },
);

const peer = {
  client,
  era: era === 'legacy' ? 'legacy' : 'modern',
  transport: kind,
  logs: [],
  listChanged: [],
  elicitations: [],
  wire: t.wire,
  lateProgressRace: true, // typescript-sdk #2580
  callTool: (params, options) => client.callTool(params, options),
  negotiatedVersion: () => client.getNegotiatedProtocolVersion(),
};

client.setRequestHandler('sampling/createMessage', (req) => samplingAnswer(req.params));
client.setRequestHandler('elicitation/create', (req) => elicitationAnswer(req.params, peer));
client.setRequestHandler('roots/list', () => rootsAnswer());
client.setNotificationHandler('notifications/message', (n) => peer.logs.push(n.params));
for (const m of ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']) {
  client.setNotificationHandler(m, (n) => peer.listChanged.push(n.method));
}

let connected = false;
await t.run(era === 'legacy' ? 'initialize' : `connect (${era}: server/discover)`, async () => {
  await client.connect(transport);
  connected = true;
  if (era !== 'legacy') assert.equal(client.getProtocolEra(), 'modern', 'negotiated era');
});

if (connected) {
  const name = client.getServerVersion()?.name;
  if (name === 'hello') await helloSuite(t, peer);
  else await everythingSuite(t, peer);
  await t.run('close', () => client.close());
}
process.exit(t.done());
