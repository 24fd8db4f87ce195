// The OAuth cases shared by v1oauth.mjs and v2oauth.mjs: a TypeScript SDK
// client with its own OAuth machinery (auth(), driven through an
// OAuthClientProvider) discovers the authorization server from a fastmcp
// protected server's 401, registers itself (RFC 7591), authorizes with
// PKCE S256 and a resource indicator, gets a token and calls tools; then,
// optionally, steps up to more scope on a 403 insufficient_scope.
//
// Nothing is interactive: the test authorization server
// (interop/authserver) approves at once, and fastmcp's own authorization
// server's login and consent pages are plain forms; the provider's
// redirectToAuthorization follows the authorization URL with fetch
// (posting those forms) and keeps the redirect's query (code, state, iss),
// which the SDK's own finishAuth then redeems.

import { randomBytes } from 'node:crypto';

import { assert, textOf } from './lib.mjs';

// REDIRECT_URL is where the authorization server sends the user agent
// back; nothing listens there: the provider reads the Location header.
const REDIRECT_URL = 'http://127.0.0.1:1/callback';

// InteropProvider is an OAuthClientProvider (the same interface in v1 and
// v2) that keeps everything in memory and authorizes without a browser.
export class InteropProvider {
  constructor(name) {
    this.name = name;
    this.authorizations = []; // every authorization URL, in order
    this.callbacks = []; // the query of every redirect back
    this._client = undefined;
    this._tokens = undefined;
    this._verifier = undefined;
    this._state = undefined;
    this._discovery = undefined;
  }

  get redirectUrl() {
    return REDIRECT_URL;
  }

  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state() {
    this._state = randomBytes(16).toString('base64url');
    return this._state;
  }

  clientInformation() {
    return this._client;
  }

  saveClientInformation(info) {
    this._client = info;
  }

  tokens() {
    return this._tokens;
  }

  saveTokens(tokens) {
    this._tokens = tokens;
  }

  saveCodeVerifier(verifier) {
    this._verifier = verifier;
  }

  codeVerifier() {
    return this._verifier;
  }

  saveDiscoveryState(state) {
    this._discovery = state;
  }

  discoveryState() {
    return this._discovery;
  }

  // redirectToAuthorization plays the user agent: it follows the URL
  // until the redirect back. interop/authserver answers with that redirect
  // at once; fastmcp's own authorization server (module oauthserver) shows
  // its login and consent pages first, plain HTML forms which it fills in
  // (the user name this.user, Allow) and posts, keeping cookies.
  async redirectToAuthorization(url) {
    this.authorizations.push(new URL(url));
    const back = await browse(url, this.user || 'interop-user');
    if (!back.href.startsWith(REDIRECT_URL + '?')) throw new Error(`redirected to ${back.href}, want ${REDIRECT_URL}`);
    this.callbacks.push(back.searchParams);
  }

  // lastState is the state the last authorization request carried.
  get lastState() {
    return this._state;
  }
}

// unescapeHTML undoes html/template's escaping of attribute values.
function unescapeHTML(s) {
  return s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

// browse follows url as a browser would (cookies kept, redirects
// followed) through HTML form pages, posting each form with its fields,
// the user name in a "username" field and "allow" on a "decision" button,
// and returns the URL of the redirect to REDIRECT_URL.
async function browse(url, user) {
  const cookies = new Map();
  let req = { url: new URL(url), method: 'GET', body: undefined };
  for (let i = 0; i < 12; i++) {
    const headers = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (req.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(req.url, { method: req.method, body: req.body, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const loc = new URL(res.headers.get('location'), req.url);
      if (loc.href.startsWith(REDIRECT_URL)) return loc;
      req = { url: loc, method: 'GET', body: undefined };
      continue;
    }
    const page = await res.text();
    const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(page);
    if (res.status !== 200 || !form) throw new Error(`authorization: ${req.url} answered ${res.status} without a form: ${page.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const [, attrs] of form[2].matchAll(/<input([^>]*)>/gi)) {
      const name = /name="([^"]*)"/.exec(attrs)?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(attrs)?.[1] ?? '';
      fields.set(unescapeHTML(name), name === 'username' ? user : unescapeHTML(value));
    }
    if (/<button[^>]*name="decision"/i.test(form[2])) fields.set('decision', 'allow');
    req = { url: new URL(unescapeHTML(form[1]), req.url), method: 'POST', body: fields.toString() };
  }
  throw new Error('authorization: too many pages');
}

// recordingFetch returns a fetch that records every HTTP exchange (method,
// URL, status, WWW-Authenticate) into log.
export function recordingFetch(log) {
  return async (input, init) => {
    const res = await fetch(input, init);
    log.push({
      method: (init && init.method) || (input instanceof Request ? input.method : 'GET'),
      url: String(input instanceof Request ? input.url : input),
      status: res.status,
      challenge: res.headers.get('www-authenticate'),
    });
    return res;
  };
}

// decodeJWT returns a JWT's header and claims, unverified (the server
// verifies it; the checks only read it).
export function decodeJWT(token) {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h, 'base64url')), claims: JSON.parse(Buffer.from(p, 'base64url')) };
}

// oauthSuite runs the checks against the protected MCP endpoint url.
//
// sdk adapts one SDK: open(url, provider, fetch, wire) returns a client
// and its transport (with provider as its authProvider and fetch as its
// fetch), not connected; finishAuth(transport, params) redeems the code
// of a redirect back; callTool(client, name) calls a tool;
// isUnauthorized(err) recognises the SDK's UnauthorizedError; connected(client),
// if set, checks the connection.
// want: resource (the protected resource, url by default: the resource
// indicator and the audience), subject (the token's expected "sub"),
// scope (asked for and granted at first; "" for none), stepUp (a tool
// that needs more scope, and that scope), wire (the tapped JSON-RPC log).
export async function oauthSuite(t, sdk, url, want) {
  const resource = want.resource || url;
  // mcp reports whether an HTTP exchange went to the MCP endpoints (over
  // HTTP+SSE, the stream and the message endpoint, both under the
  // resource's path).
  const mcp = (h) => h.url.startsWith(resource) && !h.url.includes('/.well-known/');
  const http = [];
  const provider = new InteropProvider(sdk.name);
  provider.user = want.subject;
  const fetchFn = recordingFetch(http);
  const first = sdk.open(url, provider, fetchFn, want.wire);

  await t.run('connect without a token: 401, and the SDK sends the user to authorize', async () => {
    await assert.rejects(first.client.connect(first.transport), (err) => {
      if (!sdk.isUnauthorized(err)) throw err;
      return true;
    });
    const refused = http.find(mcp);
    assert.ok(refused, 'the MCP endpoint was called');
    assert.equal(refused.status, 401);
    assert.match(refused.challenge || '', /^Bearer .*resource_metadata="[^"]+oauth-protected-resource\/mcp"/);
    assert.equal(provider.authorizations.length, 1, 'one authorization request');
  });

  await t.run('discovery: protected resource metadata (RFC 9728), then authorization server metadata (RFC 8414)', async () => {
    const prm = http.find((h) => h.url.includes('/.well-known/oauth-protected-resource'));
    assert.ok(prm && prm.status === 200, `protected resource metadata fetched: ${JSON.stringify(prm)}`);
    const asm = http.find((h) => /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(h.url) && h.status === 200);
    assert.ok(asm, 'authorization server metadata fetched');
    assert.ok(http.indexOf(prm) < http.indexOf(asm), 'resource metadata first');
  });

  await t.run('dynamic client registration (RFC 7591)', async () => {
    const reg = http.find((h) => h.url.endsWith('/register'));
    assert.ok(reg, 'registration request sent');
    assert.equal(reg.status, 201);
    const info = provider.clientInformation();
    assert.ok(info && info.client_id, 'client_id saved');
    assert.equal(info.client_secret, undefined, 'a public client gets no secret');
  });

  await t.run('authorization request: code, PKCE S256, state, resource indicator (RFC 8707), scope from the challenge', async () => {
    const q = provider.authorizations[0].searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), provider.clientInformation().client_id);
    assert.equal(q.get('redirect_uri'), provider.redirectUrl);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') || '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok(q.get('state'), 'state sent');
    assert.deepEqual(q.getAll('resource'), [resource]);
    assert.equal(q.get('scope'), want.scope || null);
  });

  await t.run('redirect back with code, state and iss (RFC 9207)', async () => {
    const back = provider.callbacks[0];
    assert.ok(back, 'redirected back');
    assert.equal(back.get('error'), null, `error ${back.get('error')}: ${back.get('error_description')}`);
    assert.ok(back.get('code'), 'code');
    assert.equal(back.get('state'), provider.lastState);
    assert.ok(back.get('iss'), 'iss');
  });

  await t.run("finishAuth: the SDK redeems the code with its verifier; an RFC 9068 token for this resource", async () => {
    await sdk.finishAuth(first.transport, provider.callbacks[0]);
    const tokens = provider.tokens();
    assert.ok(tokens && tokens.access_token, 'tokens saved');
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.ok(tokens.refresh_token, 'a refresh token');
    const { header, claims } = decodeJWT(tokens.access_token);
    assert.equal(header.typ, 'at+jwt');
    assert.equal(claims.aud, resource);
    assert.equal(claims.sub, want.subject);
    assert.equal(claims.client_id, provider.clientInformation().client_id);
    assert.equal(claims.scope, want.scope || undefined);
    assert.equal(claims.iss, provider.callbacks[0].get('iss'));
  });

  let conn;
  await t.run('connect with the token', async () => {
    const c = sdk.open(url, provider, fetchFn, want.wire);
    await c.client.connect(c.transport);
    conn = c;
    sdk.connected?.(c.client);
    const last = http.filter(mcp).at(-1);
    assert.ok(last.status < 300, `last MCP request answered ${last.status}`);
  });
  if (!conn) return;

  await t.run('tools/list', async () => {
    const { tools } = await conn.client.listTools();
    const names = tools.map((x) => x.name).sort();
    for (const n of ['whoami', want.stepUp?.tool].filter(Boolean)) assert.ok(names.includes(n), `tool ${n} listed: ${names}`);
  });

  await t.run('whoami returns the token subject', async () => {
    const res = await sdk.callTool(conn.client, 'whoami');
    assert.ok(!res.isError, `isError: ${textOf(res)}`);
    assert.equal(subjectOf(res), want.subject);
  });

  await t.run('a token the server refuses (401 invalid_token) is refreshed with the refresh token', async () => {
    const tokens = provider.tokens();
    const [h, p, sig] = tokens.access_token.split('.');
    const forged = `${h}.${p}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`; // the signature no longer matches
    provider.saveTokens({ ...tokens, access_token: forged });
    const tokenCalls = http.filter((x) => x.url.endsWith('/token')).length;
    const res = await sdk.callTool(conn.client, 'whoami');
    assert.equal(subjectOf(res), want.subject);
    const refused = http.filter((x) => mcp(x) && x.status === 401).at(-1);
    assert.match(refused?.challenge || '', /^Bearer error="invalid_token"/);
    assert.equal(http.filter((x) => x.url.endsWith('/token')).length, tokenCalls + 1, 'one token request (the refresh)');
    const now = provider.tokens();
    assert.notEqual(now.access_token, forged, 'a new access token');
    assert.notEqual(now.refresh_token, tokens.refresh_token, 'the refresh token rotated');
  });

  if (want.stepUp) {
    const { tool, scope } = want.stepUp;
    if (sdk.refreshesOnStepUp) {
      await stepUpByHost(t, sdk, conn, provider, http, fetchFn, url, mcp, want);
    } else {
      await t.run(`${tool}: 403 insufficient_scope, and the SDK re-authorizes for "${scope}"`, async () => {
        const before = provider.authorizations.length;
        let res;
        try {
          res = await sdk.callTool(conn.client, tool);
        } catch (err) {
          if (!sdk.isUnauthorized(err)) throw err;
        }
        checkForbidden(http, mcp, scope);
        assert.equal(res, undefined, 'the call waits for the new authorization');
        assert.equal(provider.authorizations.length, before + 1, 'a new authorization request');
        assert.equal(provider.authorizations.at(-1).searchParams.get('scope'), scope);
      });
    }
    await t.run(`${tool} after finishAuth with the new code`, async () => {
      await sdk.finishAuth(conn.transport, provider.callbacks.at(-1));
      assert.equal(decodeJWT(provider.tokens().access_token).claims.scope, scope);
      const res = await sdk.callTool(conn.client, tool);
      assert.ok(!res.isError, `isError: ${textOf(res)}`);
      assert.ok(textOf(res).includes(want.subject), `${tool} answered ${textOf(res)}, which does not name ${want.subject}`);
    });
  }

  await t.run('close', () => conn.client.close());
}

// subjectOf reads the subject whoami returns: its text, or the subject
// member of its structured result.
function subjectOf(res) {
  return res.structuredContent?.subject ?? textOf(res);
}

// checkForbidden checks the last 403 of the MCP endpoint: insufficient
// scope, naming scope.
function checkForbidden(http, mcp, scope) {
  const forbidden = http.filter((h) => mcp(h) && h.status === 403).at(-1);
  assert.ok(forbidden, 'the server answered 403');
  assert.match(forbidden.challenge || '', new RegExp(`^Bearer error="insufficient_scope", scope="${scope}"`));
}

// stepUpByHost is step-up for an SDK whose auth() answers a 403
// insufficient_scope with its refresh token when it has one (v1:
// typescript-sdk #2255): the refresh cannot widen the scope (RFC 6749 §6),
// the retry gets the same 403 and the SDK gives up. The check confirms
// that, then steps up as a host would: it drops the tokens and calls the
// SDK's auth() with the scope of the challenge.
async function stepUpByHost(t, sdk, conn, provider, http, fetchFn, url, mcp, want) {
  const { tool, scope } = want.stepUp;
  await t.run(`${tool}: 403 insufficient_scope; the SDK refreshes (same scope) instead of re-authorizing, and gives up`, async () => {
    const before = provider.authorizations.length;
    const tokenCalls = http.filter((h) => h.url.endsWith('/token')).length;
    await assert.rejects(sdk.callTool(conn.client, tool), /403/);
    checkForbidden(http, mcp, scope);
    assert.equal(provider.authorizations.length, before, 'no new authorization request');
    assert.equal(http.filter((h) => h.url.endsWith('/token')).length, tokenCalls + 1, 'one refresh');
  });
  console.log(`note ${sdk.name}: auth() refreshes on insufficient_scope (typescript-sdk #2255); the host steps up with auth() itself`);
  await t.run(`host step-up: drop the tokens, auth() asks for "${scope}"`, async () => {
    const before = provider.authorizations.length;
    provider.saveTokens(undefined);
    const result = await sdk.auth(provider, { serverUrl: url, scope, fetchFn });
    assert.equal(result, 'REDIRECT');
    assert.equal(provider.authorizations.length, before + 1, 'a new authorization request');
    const q = provider.authorizations.at(-1).searchParams;
    assert.equal(q.get('scope'), scope);
    assert.deepEqual(q.getAll('resource'), [want.resource || url]);
  });
}
