// A TypeScript SDK v2 (@modelcontextprotocol/client) client with the
// SDK's OAuth support (auth() through an OAuthClientProvider, which the
// transport adapts) against a fastmcp server protected by bearer tokens,
// over Streamable HTTP, in either protocol era. See oauth.mjs.
//
//   node v2oauth.mjs [--era legacy|modern] http|sse <url> [--resource URL] [--subject S] [--scope S] [--step-up TOOL --step-up-scope S]
//
// The options are v1oauth.mjs's; --era legacy (the default) is the 2025
// initialize handshake, modern pins 2026-07-28. Prints one line per check
// and exits non-zero when any fails.

import { Client, SSEClientTransport, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';

import { Checks, assert, tap, parseArgs } from './lib.mjs';
import { oauthSuite } from './oauth.mjs';

const { opts, pos } = parseArgs(process.argv.slice(2));
const [kind, url] = pos;
const era = opts.era || 'legacy';
if (!['http', 'sse'].includes(kind) || !url) {
  console.error('usage: v2oauth.mjs [--era legacy|modern] http|sse URL [--resource URL] [--subject S] [--scope S] [--step-up TOOL --step-up-scope S]');
  process.exit(2);
}

const sdk = {
  name: 'interop-ts-v2-oauth',
  open(u, provider, fetch, wire) {
    const Transport = kind === 'sse' ? SSEClientTransport : StreamableHTTPClientTransport;
    const transport = tap(new Transport(new URL(u), { authProvider: provider, fetch }), wire);
    const client = new Client(
      { name: 'interop-ts-v2-oauth', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : era } },
    );
    return { client, transport };
  },
  // The preferred form: the SDK checks iss against the issuer (RFC 9207)
  // before it redeems the code.
  finishAuth: (transport, params) => transport.finishAuth(params),
  callTool: (client, name) => client.callTool({ name, arguments: {} }),
  isUnauthorized: (err) => err instanceof UnauthorizedError,
  connected(client) {
    assert.equal(client.getProtocolEra(), era === 'modern' ? 'modern' : 'legacy', 'negotiated era');
  },
};

const t = new Checks(`ts-sdk-v2 client (${era}) with OAuth over ${kind === 'sse' ? 'sse' : 'streamable-http'}`);
await oauthSuite(t, sdk, url, {
  resource: opts.resource,
  subject: opts.subject || 'interop-user',
  scope: 'scope' in opts ? opts.scope : 'mcp',
  stepUp: opts['step-up'] ? { tool: opts['step-up'], scope: opts['step-up-scope'] } : undefined,
  wire: t.wire,
});
process.exit(t.done());
