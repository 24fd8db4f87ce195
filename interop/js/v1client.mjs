// A TypeScript SDK v1 (@modelcontextprotocol/sdk) client against a fastmcp
// server.
//
//   node v1client.mjs stdio -- <server command> [args...]
//   node v1client.mjs http  <url>      # Streamable HTTP, e.g. http://127.0.0.1:3001/mcp
//   node v1client.mjs sse   <url>      # legacy HTTP+SSE, e.g. http://127.0.0.1:3001/sse
//
// Prints one line per check and exits non-zero when any fails.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { Checks, assert, tap, initializeResult, parseArgs } from './lib.mjs';
import { everythingSuite, helloSuite, samplingAnswer, elicitationAnswer, rootsAnswer } from './suite.mjs';

const { pos } = parseArgs(process.argv.slice(2));
const [kind, ...rest] = pos;

function makeTransport() {
  switch (kind) {
    case 'stdio':
      return new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(rest[0]));
    case 'sse':
      return new SSEClientTransport(new URL(rest[0]));
    default:
      console.error('usage: v1client.mjs stdio -- cmd args... | http URL | sse URL');
      process.exit(2);
  }
}

const t = new Checks(`ts-sdk-v1 client over ${kind}`);
const transport = tap(makeTransport(), t.wire);
const client = new Client(
  { name: 'interop-ts-v1', version: '1.0.0' },
  { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } }, enforceStrictCapabilities: true },
);

const peer = {
  client,
  era: 'legacy',
  transport: kind,
  logs: [],
  listChanged: [],
  elicitations: [],
  wire: t.wire,
  lateProgressRace: true, // typescript-sdk #2580
  callTool: (params, options) => client.callTool(params, CallToolResultSchema, options),
  negotiatedVersion: () => initializeResult(t.wire)?.protocolVersion,
};

client.setRequestHandler(CreateMessageRequestSchema, (req) => samplingAnswer(req.params));
client.setRequestHandler(ElicitRequestSchema, (req) => elicitationAnswer(req.params, peer));
client.setRequestHandler(ListRootsRequestSchema, () => rootsAnswer());
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => peer.logs.push(n.params));
for (const schema of [ToolListChangedNotificationSchema, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema]) {
  client.setNotificationHandler(schema, (n) => peer.listChanged.push(n.method));
}

let connected = false;
await t.run('initialize', async () => {
  await client.connect(transport);
  connected = true;
});

if (connected) {
  const name = client.getServerVersion()?.name;
  if (name === 'hello') await helloSuite(t, peer);
  else await everythingSuite(t, peer);

  if (kind === 'http') {
    await t.run('DELETE ends the session', async () => {
      assert.ok(transport.sessionId, 'server assigned a session id');
      await transport.terminateSession();
    });
  }
  await t.run('close', () => client.close());
}
process.exit(t.done());
