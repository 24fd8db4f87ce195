// An OpenID provider for fastmcp's OAuth client tests: panva's
// oidc-provider (certified by the OpenID Foundation) on 127.0.0.1, set up
// as an MCP deployment would set it up:
//
//   - discovery (/.well-known/openid-configuration), dynamic client
//     registration, PKCE (S256, required), the iss response parameter;
//   - resource indicators: tokens for the resource given with --resource
//     are JWT access tokens (RFC 9068) with its audience and the scopes
//     named by --scopes (default "mcp admin");
//   - refresh tokens, issued when offline_access is granted, which the
//     provider allows only with prompt=consent (OpenID Connect Core §11);
//   - introspection and revocation.
//
// The user's part is headless: the interaction page (/interaction/UID)
// logs in the user "oidc-user" and grants what the client asked for,
// unless the browser adds answer=deny to its URL, which denies the
// request (access_denied). The browser must keep cookies.
//
//   node provider.mjs --resource http://127.0.0.1:PORT/mcp [--scopes "mcp admin"] [--port 0]
//        [--client ID=SECRET=REDIRECT_URI] [--no-registration]
//
// --client pre-registers a confidential client; --no-registration turns
// dynamic registration off (an upstream identity provider as the OAuth
// proxy meets it).
//
// It prints one line of JSON to stdout once it listens:
// {"issuer":"http://127.0.0.1:PORT"}; the provider's own notices go to
// stdout after it, its warnings to stderr. It stops on SIGTERM or SIGINT,
// or when stdin closes (so that it never outlives its test).
import { createServer } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import Provider, { errors } from 'oidc-provider';

const { values: args } = parseArgs({
  options: {
    resource: { type: 'string' },
    scopes: { type: 'string', default: 'mcp admin' },
    port: { type: 'string', default: '0' },
    subject: { type: 'string', default: 'oidc-user' },
    client: { type: 'string' },
    'no-registration': { type: 'boolean', default: false },
  },
});
if (!args.resource) {
  console.error('provider.mjs: --resource URL is required');
  process.exit(2);
}

const server = createServer();
await new Promise((resolve) => server.listen(Number(args.port), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };

// --client ID=SECRET=REDIRECT_URI pre-registers a confidential client
// (client_secret_basic), as an upstream of an OAuth proxy has it.
const clients = [];
if (args.client) {
  const [client_id, client_secret, redirect_uri] = args.client.split('=');
  clients.push({ client_id, client_secret, redirect_uris: [redirect_uri], grant_types: ['authorization_code', 'refresh_token'] });
}

const provider = new Provider(issuer, {
  clients,
  jwks: { keys: [jwk] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  findAccount: async (ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  scopes: ['openid', 'offline_access'],
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  features: {
    devInteractions: { enabled: false },
    registration: { enabled: !args['no-registration'] },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => args.resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource) => {
        if (resource !== args.resource) {
          throw new errors.InvalidTarget();
        }
        return {
          scope: args.scopes,
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
});

// interact answers an interaction without a user: login, then consent to
// everything asked for; or, with answer=deny, access_denied.
async function interact(req, res) {
  const details = await provider.interactionDetails(req, res);
  const answer = new URL(req.url, issuer).searchParams.get('answer');
  if (answer === 'deny') {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the user declined' }, { mergeWithLastSubmission: false });
    return;
  }
  const { prompt, params, session } = details;
  if (prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: args.subject } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const d = prompt.details;
  if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
  if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const callback = provider.callback();
server.on('request', (req, res) => {
  if (req.url.startsWith('/interaction/')) {
    interact(req, res).catch((err) => {
      console.error('provider.mjs: interaction failed:', err);
      res.statusCode = 500;
      res.end(String(err));
    });
    return;
  }
  callback(req, res);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();
console.log(JSON.stringify({ issuer }));
