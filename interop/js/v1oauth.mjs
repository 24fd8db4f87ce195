// A TypeScript SDK v1 (@modelcontextprotocol/sdk) client with the SDK's
// OAuth support (auth() through an OAuthClientProvider) against a fastmcp
// server protected by bearer tokens, over Streamable HTTP. See oauth.mjs.
//
//   node v1oauth.mjs http|sse <url> [--resource URL] [--subject S] [--scope S] [--step-up TOOL --step-up-scope S]
//
// <url> is the protected MCP endpoint, e.g. http://127.0.0.1:8000/mcp;
// --subject is the token subject whoami must return (default
// interop-user); --scope the scope the first authorization must ask for
// (default mcp, what the server's challenge names; '' for none); --step-up names a tool
// whose call is refused with 403 insufficient_scope until the client has
// --step-up-scope. Prints one line per check and exits non-zero when any
// fails.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { UnauthorizedError, auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { Checks, tap, parseArgs } from './lib.mjs';
import { oauthSuite } from './oauth.mjs';

const { opts, pos } = parseArgs(process.argv.slice(2));
const [kind, url] = pos;
if (!['http', 'sse'].includes(kind) || !url) {
  console.error('usage: v1oauth.mjs http|sse URL [--resource URL] [--subject S] [--scope S] [--step-up TOOL --step-up-scope S]');
  process.exit(2);
}

const sdk = {
  name: 'interop-ts-v1-oauth',
  open(u, provider, fetch, wire) {
    const Transport = kind === 'sse' ? SSEClientTransport : StreamableHTTPClientTransport;
    const transport = tap(new Transport(new URL(u), { authProvider: provider, fetch }), wire);
    const client = new Client({ name: 'interop-ts-v1-oauth', version: '1.0.0' }, { capabilities: {} });
    return { client, transport };
  },
  finishAuth: (transport, params) => transport.finishAuth(params.get('code')),
  callTool: (client, name) => client.callTool({ name, arguments: {} }, CallToolResultSchema),
  isUnauthorized: (err) => err instanceof UnauthorizedError,
  // On 403 insufficient_scope, auth() uses the refresh token when there
  // is one, which cannot widen the scope (typescript-sdk #2255): the
  // suite steps up through auth() as a host would.
  refreshesOnStepUp: true,
  auth,
};

const t = new Checks('ts-sdk-v1 client with OAuth over ' + (kind === 'sse' ? 'sse' : 'streamable-http'));
await oauthSuite(t, sdk, url, {
  resource: opts.resource,
  subject: opts.subject || 'interop-user',
  scope: 'scope' in opts ? opts.scope : 'mcp',
  stepUp: opts['step-up'] ? { tool: opts['step-up'], scope: opts['step-up-scope'] } : undefined,
  wire: t.wire,
});
process.exit(t.done());
