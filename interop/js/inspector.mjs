// The MCP Inspector CLI (@modelcontextprotocol/inspector --cli) against a
// fastmcp server: one Inspector run per method, each checked.
//
//   node inspector.mjs [--era legacy|modern] stdio -- <server command> [args...]
//   node inspector.mjs [--era legacy|modern] http <url>
//   node inspector.mjs sse <url>
//
// The server is the everything-server (examples/conformance/server), or
// the hello demo when the command's last argument is "serve". The Inspector
// runs with HOME pointed at a scratch directory, so its catalog and
// settings files stay out of the user's home.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Checks, assert, textOf, parseArgs } from './lib.mjs';

const require = createRequire(import.meta.url);
const launcher = path.join(path.dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients/launcher/build/index.js');

const { opts, pos } = parseArgs(process.argv.slice(2));
const [kind, ...rest] = pos;
const era = opts.era || 'legacy';
const home = mkdtempSync(path.join(tmpdir(), 'fastmcp-inspector-'));

function target() {
  switch (kind) {
    case 'stdio':
      return ['--', ...rest];
    case 'http':
    case 'sse':
      return ['--transport', kind, '--server-url', rest[0]];
    default:
      console.error('usage: inspector.mjs [--era legacy|modern] stdio -- cmd args... | http URL | sse URL');
      process.exit(2);
  }
}

// inspect runs the Inspector CLI once and returns its exit code, the parsed
// JSON result and its stderr.
function inspect(args) {
  const argv = [launcher, '--cli', '--format', 'json', '--protocol-era', era, '--connect-timeout', '10000', ...args, ...target()];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      env: { ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home, 'mcp.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let json;
      try {
        json = stdout.trim() ? JSON.parse(stdout) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ code, json, stdout, stderr });
    });
  });
}

// result runs the Inspector and returns the method's result, failing on a
// non-zero exit or an error envelope.
async function result(args) {
  const r = await inspect(args);
  if (r.code !== 0 || !r.json || r.json.error || r.json.result === undefined) {
    throw new Error(`inspector exited ${r.code}: ${(r.stdout + ' ' + r.stderr).trim().slice(0, 500)}`);
  }
  return r.json.result;
}

const t = new Checks(`inspector (${era}) over ${kind}`);
const hello = kind === 'stdio' && rest[rest.length - 1] === 'serve';

if (hello) {
  await t.run('tools/list --strict: no schema portability errors', async () => {
    const r = await inspect(['--strict', '--method', 'tools/list']);
    assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr.slice(0, 500)}`);
    assert.deepEqual(r.json.result.tools.map((x) => x.name).sort(), ['add', 'countdown', 'greet']);
  });
  await t.run('tools/call add a=2 b=3 (arguments coerced by the schema)', async () => {
    const res = await result(['--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'a=2', 'b=3']);
    assert.equal(textOf(res), '5');
    assert.deepEqual(res.structuredContent, { result: 5 });
  });
  await t.run('tools/call countdown (progress and logs on the way)', async () => {
    const res = await result(['--method', 'tools/call', '--tool-name', 'countdown', '--tool-arg', 'from=2']);
    assert.deepEqual(res.structuredContent, { launched: true, message: 'liftoff' });
  });
} else {
  await t.run('tools/list --strict: no schema portability errors', async () => {
    const r = await inspect(['--strict', '--method', 'tools/list']);
    assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr.slice(0, 500)}`);
    const names = r.json.result.tools.map((x) => x.name);
    for (const n of ['test_simple_text', 'test_tool_with_progress', 'json_schema_2020_12_tool']) assert.ok(names.includes(n), `tool ${n}`);
  });
  await t.run('tools/call (no arguments)', async () => {
    const res = await result(['--method', 'tools/call', '--tool-name', 'test_simple_text']);
    assert.equal(textOf(res), 'This is a simple text response for testing.');
  });
  await t.run('tools/call --tool-arg', async () => {
    const res = await result(['--method', 'tools/call', '--tool-name', 'test_custom_header', '--tool-arg', 'region=eu-west-1']);
    assert.equal(textOf(res), 'Region: eu-west-1');
  });
  await t.run('tools/call --tool-args-json', async () => {
    const args = JSON.stringify({ name: 'Ada', contactMethod: 'email', email: 'ada@example.com' });
    const res = await result(['--method', 'tools/call', '--tool-name', 'json_schema_2020_12_tool', '--tool-args-json', args]);
    assert.match(textOf(res), /^Received: /);
  });
  await t.run('tools/call with logging and progress', async () => {
    const res = await result(['--method', 'tools/call', '--tool-name', 'test_tool_with_progress']);
    assert.match(textOf(res), /^Progress tool completed/);
  });
  await t.run('tools/call error result', async () => {
    const r = await inspect(['--method', 'tools/call', '--tool-name', 'test_error_handling']);
    const res = r.json?.result;
    assert.ok(res?.isError === true, `want an isError result, got exit ${r.code}: ${r.stdout.slice(0, 300)}`);
  });
  await t.run('resources/list', async () => {
    const res = await result(['--method', 'resources/list']);
    assert.ok(res.resources.some((r) => r.uri === 'test://static-text'));
  });
  await t.run('resources/templates/list', async () => {
    const res = await result(['--method', 'resources/templates/list']);
    assert.ok(res.resourceTemplates.some((r) => r.uriTemplate === 'test://template/{id}/data'));
  });
  await t.run('resources/read', async () => {
    const res = await result(['--method', 'resources/read', '--uri', 'test://template/7/data']);
    assert.equal(JSON.parse(res.contents[0].text).id, '7');
  });
  await t.run('prompts/list', async () => {
    const res = await result(['--method', 'prompts/list']);
    assert.ok(res.prompts.some((p) => p.name === 'test_simple_prompt'));
  });
  await t.run('prompts/get --prompt-args', async () => {
    const res = await result(['--method', 'prompts/get', '--prompt-name', 'test_prompt_with_arguments', '--prompt-args', 'arg1=x', 'arg2=y']);
    assert.equal(res.messages[0].content.text, "Prompt with arguments: arg1='x', arg2='y'");
  });
  if (era === 'legacy') {
    await t.run('logging/setLevel', () => result(['--method', 'logging/setLevel', '--log-level', 'debug']));
  }
}

rmSync(home, { recursive: true, force: true });
process.exit(t.done());
