// A small MCP server written with the TypeScript SDK v1
// (@modelcontextprotocol/sdk), for fastmcp's client to talk to.
//
//   node v1server.mjs stdio
//   node v1server.mjs http --port N    # Streamable HTTP at /mcp (sessions) and /stateless
//                                      # (a server per request), legacy HTTP+SSE at /sse
//
// It has the features interop/goclient checks: tools with structured
// output, progress and logging; a tool that asks the client for a sample,
// a form and its roots (server-to-client requests); a failing tool; a
// static resource and a template; a prompt with a completable argument.

import http from 'node:http';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { parseArgs } from './lib.mjs';

function createServer() {
  const server = new McpServer(
    { name: 'interop-ts-v1', version: '1.0.0' },
    { capabilities: { logging: {} }, instructions: 'TypeScript SDK v1 interop server.' },
  );

  server.registerTool(
    'add',
    {
      description: 'Add two numbers',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );

  server.registerTool(
    'countdown',
    { description: 'Count down, reporting progress and logging each step', inputSchema: { from: z.number().int().min(1).max(10) } },
    async ({ from }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= from; i++) {
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', logger: 'countdown', data: `step ${i}` } });
        if (token !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: from, message: `${from - i} to go` } });
        }
      }
      return { content: [{ type: 'text', text: 'liftoff' }] };
    },
  );

  server.registerTool('ask', { description: 'Ask the client for a sample, a form and its roots' }, async (extra) => {
    const sample = await extra.sendRequest(
      { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 } },
      CreateMessageResultSchema,
    );
    const form = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Who are you?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      ElicitResultSchema,
    );
    const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
    const text = `sample=${sample.content.text} form=${form.action}:${form.content?.name} roots=${roots.roots.map((r) => r.uri).join(',')}`;
    return { content: [{ type: 'text', text }] };
  });

  server.registerTool('touch', { description: 'Send notifications/tools/list_changed' }, async () => {
    server.sendToolListChanged();
    return { content: [{ type: 'text', text: 'sent' }] };
  });

  server.registerTool('echo', { description: 'Echo the text', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));

  server.registerTool('fail', { description: 'Always fails' }, async () => {
    throw new Error('this tool always fails');
  });

  server.registerResource(
    'greeting',
    'interop://greeting',
    { title: 'Greeting', description: 'A static text resource', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello from TypeScript' }] }),
  );

  server.registerResource(
    'item',
    new ResourceTemplate('interop://items/{id}', { list: undefined }),
    { title: 'Item', description: 'A templated resource', mimeType: 'application/json' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id }) }] }),
  );

  server.registerPrompt(
    'review',
    {
      title: 'Code review',
      description: 'Review some code',
      argsSchema: { language: completable(z.string(), (v) => ['go', 'javascript', 'python'].filter((x) => x.startsWith(v))), code: z.string() },
    },
    ({ language, code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language}: ${code}` } }] }),
  );
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const s = Buffer.concat(chunks).toString('utf8');
  return s ? JSON.parse(s) : undefined;
}

function serveHTTP(port) {
  const streamable = new Map(); // session id → transport
  const sse = new Map(); // session id → transport
  const srv = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      if (url.pathname === '/mcp') {
        const sid = req.headers['mcp-session-id'];
        let transport = sid && streamable.get(sid);
        const body = req.method === 'POST' ? await readBody(req) : undefined;
        if (!transport) {
          if (sid || req.method !== 'POST' || body?.method !== 'initialize') {
            res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: sid ? 'Session not found' : 'Bad Request: no session' }, id: null }));
            return;
          }
          transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => streamable.set(id, transport),
          });
          transport.onclose = () => transport.sessionId && streamable.delete(transport.sessionId);
          await createServer().connect(transport);
        }
        await transport.handleRequest(req, res, body);
        return;
      }
      if (url.pathname === '/stateless') {
        // The stateless deployment: a fresh server and transport per request.
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const server = createServer();
        res.on('close', () => {
          transport.close();
          server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, await readBody(req));
        return;
      }
      if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        res.on('close', () => sse.delete(transport.sessionId));
        await createServer().connect(transport);
        return;
      }
      if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = sse.get(url.searchParams.get('sessionId'));
        if (!transport) {
          res.writeHead(404).end('unknown session');
          return;
        }
        await transport.handlePostMessage(req, res, await readBody(req));
        return;
      }
      res.writeHead(404).end();
    } catch (err) {
      console.error('v1server:', err);
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  srv.listen(port, '127.0.0.1', () => console.error(`v1server listening on ${srv.address().port}`));
}

const { opts, pos } = parseArgs(process.argv.slice(2));
if (pos[0] === 'stdio') {
  await createServer().connect(new StdioServerTransport());
} else if (pos[0] === 'http') {
  serveHTTP(Number(opts.port || 0));
} else {
  console.error('usage: v1server.mjs stdio | http --port N');
  process.exit(2);
}
