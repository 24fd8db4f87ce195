// A small MCP server written with the TypeScript SDK v2
// (@modelcontextprotocol/server), for fastmcp's client to talk to. One
// factory serves both protocol eras: 2026-07-28 (server/discover, per-request
// _meta, input_required results) and the 2025 initialize handshake.
//
//   node v2server.mjs stdio            # serveStdio: the opening message picks the era
//   node v2server.mjs http --port N    # createMcpHandler at /mcp (modern, and stateless legacy)
//   node v2server.mjs http --port N --legacy sessionful
//                                      # legacy requests (isLegacyRequest) go to sessionful
//                                      # WebStandardStreamableHTTPServerTransports instead
//
// Stateless legacy serving answers each 2025-era request with a fresh
// instance, so it cannot send server-to-client requests (the ask tool
// fails there, as the SDK documents); the sessionful composition can.
//
// The features match v1server.mjs. The ask tool is written once with
// inputRequired(...): on 2026-07-28 the client answers the embedded
// requests and retries; on 2025-era connections the SDK's legacy shim turns
// them into server-to-client requests.

import http from 'node:http';
import {
  McpServer,
  ResourceTemplate,
  WebStandardStreamableHTTPServerTransport,
  completable,
  createMcpHandler,
  inputRequired,
  inputResponse,
  isInitializeRequest,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { parseArgs } from './lib.mjs';

let httpHandler; // the createMcpHandler handler, when serving HTTP

// createServer builds one instance; bus says that list changes go to the
// HTTP handler's subscriptions/listen bus (a 2026-07-28 instance under
// createMcpHandler) rather than out of the instance itself.
function createServer({ bus = false } = {}) {
  const server = new McpServer(
    { name: 'interop-ts-v2', version: '1.0.0' },
    { capabilities: { logging: {} }, instructions: 'TypeScript SDK v2 interop server.' },
  );

  server.registerTool(
    'add',
    {
      description: 'Add two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );

  server.registerTool(
    'countdown',
    { description: 'Count down, reporting progress and logging each step', inputSchema: z.object({ from: z.number().int().min(1).max(10) }) },
    async ({ from }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= from; i++) {
        await ctx.mcpReq.log('info', `step ${i}`, 'countdown');
        if (token !== undefined) {
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: from, message: `${from - i} to go` } });
        }
        if (ctx.mcpReq.signal.aborted) break;
      }
      return { content: [{ type: 'text', text: 'liftoff' }] };
    },
  );

  server.registerTool('ask', { description: 'Ask the client for a sample, a form and its roots' }, async (ctx) => {
    const answers = ctx.mcpReq.inputResponses;
    const sample = inputResponse(answers, 'sample');
    const form = inputResponse(answers, 'form');
    const roots = inputResponse(answers, 'roots');
    if (sample.kind !== 'sampling' || form.kind !== 'elicit' || roots.kind !== 'roots') {
      return inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 }),
          form: inputRequired.elicit({
            message: 'Who are you?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }),
          roots: inputRequired.listRoots(),
        },
      });
    }
    const text = `sample=${sample.result.content.text} form=${form.action}:${form.content?.name} roots=${roots.roots.map((r) => r.uri).join(',')}`;
    return { content: [{ type: 'text', text }] };
  });

  server.registerTool('touch', { description: 'Send notifications/tools/list_changed' }, async () => {
    // Over HTTP the handler's bus feeds the subscriptions/listen streams
    // (2026-07-28); on stdio and legacy sessions the instance sends it.
    if (bus) httpHandler.notify.toolsChanged();
    else await server.sendToolListChanged();
    return { content: [{ type: 'text', text: 'sent' }] };
  });

  server.registerTool('echo', { description: 'Echo the text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
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
      argsSchema: z.object({
        language: completable(z.string(), (v) => ['go', 'javascript', 'python'].filter((x) => x.startsWith(v))),
        code: z.string(),
      }),
    },
    ({ language, code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language}: ${code}` } }] }),
  );
  return server;
}

// sessionfulLegacy serves 2025-era requests with one sessionful transport
// (and server instance) per Mcp-Session-Id, the composition the SDK
// documents beside isLegacyRequest.
function sessionfulLegacy() {
  const sessions = new Map();
  return async (request) => {
    const sid = request.headers.get('mcp-session-id');
    let transport = sid && sessions.get(sid);
    if (!transport) {
      const body = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
      if (sid || !body || !isInitializeRequest(body)) {
        const message = sid ? 'Session not found' : 'Bad Request: no session';
        return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: sid ? 404 : 400 });
      }
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
        onsessionclosed: (id) => sessions.delete(id),
      });
      await createServer().connect(transport);
    }
    return transport.handleRequest(request);
  };
}

// serveHTTP adapts node:http to the handler's web-standard fetch face.
function serveHTTP(port, legacyMode) {
  const onerror = (err) => console.error('v2server:', err.message);
  const handler = createMcpHandler((ctx) => createServer({ bus: ctx.era === 'modern' }), { onerror, legacy: legacyMode === 'sessionful' ? 'reject' : 'stateless' });
  httpHandler = handler;
  const legacy = legacyMode === 'sessionful' ? sessionfulLegacy() : undefined;
  const serve = async (request) => (legacy && (await isLegacyRequest(request)) ? legacy(request) : handler.fetch(request));
  const srv = http.createServer(async (req, res) => {
    const url = new URL(req.url, `http://${req.headers.host}`);
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      const response = await serve(new Request(url, { method: req.method, headers, body, signal: ac.signal }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        for await (const chunk of response.body) res.write(chunk);
      }
      res.end();
    } catch (err) {
      if (!ac.signal.aborted) console.error('v2server:', err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  srv.listen(port, '127.0.0.1', () => console.error(`v2server listening on ${srv.address().port}`));
}

const { opts, pos } = parseArgs(process.argv.slice(2));
if (pos[0] === 'stdio') {
  serveStdio(() => createServer(), { onerror: (err) => console.error('v2server:', err.message) });
} else if (pos[0] === 'http') {
  serveHTTP(Number(opts.port || 0), opts.legacy);
} else {
  console.error('usage: v2server.mjs stdio | http --port N [--legacy sessionful]');
  process.exit(2);
}
