// The checks a TypeScript SDK client (v1 or v2) runs against fastmcp's
// servers: the everything-server of examples/conformance/server and the
// hello demo of examples/hello.
//
// A peer adapter hides the API differences between the SDK lines:
//
//   peer.client               the SDK Client, connected
//   peer.era                  'legacy' (initialize handshake) or 'modern' (2026-07-28)
//   peer.transport            'stdio', 'http' or 'sse'
//   peer.callTool(params, options)
//   peer.logs                 notifications/message params received, in order
//   peer.listChanged          methods of list_changed notifications received
//   peer.elicitations         params of the elicitation requests answered, in order
//   peer.negotiatedVersion()  the protocol revision in use
//
// The client declares sampling, elicitation (form) and roots; its handlers
// answer with the values below, which the checks then look for in the
// tools' results.

import ajv2020 from 'ajv/dist/2020.js';
import { assert, textOf, waitFor, wireProgress, PNG_MAGIC } from './lib.mjs';

export const SAMPLED_TEXT = 'Paris is the capital of France.';
export const ROOT = { uri: 'file:///tmp/interop-root', name: 'interop' };

export function samplingAnswer(params) {
  assert.ok(Array.isArray(params.messages) && params.messages.length > 0, 'sampling request has messages');
  assert.equal(typeof params.maxTokens, 'number');
  return { model: 'interop-model', role: 'assistant', content: { type: 'text', text: SAMPLED_TEXT }, stopReason: 'endTurn' };
}

export function elicitationAnswer(params, peer) {
  assert.equal(typeof params.message, 'string');
  peer?.elicitations.push(params);
  if (params.message === 'decline me') return { action: 'decline' };
  const schema = params.requestedSchema;
  assert.equal(schema.type, 'object', 'requestedSchema is an object schema');
  const content = {};
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    if (name === 'email') content[name] = 'ada@example.com';
    else if (name === 'username' || name === 'name') content[name] = 'ada';
    else if (name === 'ok') content[name] = true;
    else content[name] = sampleValue(prop);
  }
  return { action: 'accept', content };
}

// sampleValue picks a valid value for an elicitation form field.
function sampleValue(prop) {
  if (prop.default !== undefined) return prop.default;
  if (prop.enum) return prop.enum[0];
  if (prop.oneOf) return prop.oneOf[0].const;
  if (prop.type === 'array') {
    const items = prop.items || {};
    return [items.enum ? items.enum[0] : items.anyOf[0].const];
  }
  return { string: 'x', number: 1, integer: 1, boolean: true }[prop.type];
}

export function rootsAnswer() {
  return { roots: [ROOT] };
}

// compileSchemas checks that every tool's input and output schema compiles
// as JSON Schema 2020-12 (the MCP default dialect) with Ajv.
function compileSchemas(tools) {
  const Ajv2020 = ajv2020.default || ajv2020;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const tool of tools) {
    for (const [kind, schema] of [['inputSchema', tool.inputSchema], ['outputSchema', tool.outputSchema]]) {
      if (!schema) continue;
      try {
        ajv.compile(schema);
      } catch (err) {
        throw new Error(`${tool.name}.${kind} does not compile: ${err.message}`);
      }
    }
  }
}

// checkProgress checks that the server sent the progress values want
// before the call's response, and that the SDK delivered them. The TS SDK
// v1 drops a progress notification that arrives in the same read as the
// response (it dispatches notifications a microtask later, after the
// response has retired the handler: typescript-sdk issue #2580, which the
// v2 line 2.4.0 still has), so when
// peer.lateProgressRace is set the last one may be missing.
function checkProgress(peer, tool, got, want) {
  const onWire = peer.wire ? wireProgress(peer.wire, tool) : undefined;
  if (onWire) assert.deepEqual(onWire, want, 'progress notifications sent before the response');
  const values = got.map((p) => p.progress);
  if (peer.lateProgressRace && values.length === want.length - 1) {
    assert.deepEqual(values, want.slice(0, -1), 'progress delivered by the SDK');
    console.log(`note ${tool}: the SDK dropped the final progress notification (typescript-sdk #2580); the wire has all of them`);
    return;
  }
  assert.deepEqual(values, want, 'progress delivered by the SDK');
}

function modernMeta(peer) {
  return peer.era === 'modern' ? { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } } : {};
}

export async function everythingSuite(t, peer) {
  const c = peer.client;
  const legacy = peer.era === 'legacy';

  await t.run('connect: server identity and capabilities', async () => {
    const info = c.getServerVersion();
    assert.equal(info?.name, 'mcp-conformance-test-server');
    const caps = c.getServerCapabilities();
    for (const k of ['tools', 'resources', 'prompts']) assert.ok(caps?.[k], `capability ${k}`);
    const v = peer.negotiatedVersion();
    assert.equal(v, legacy ? '2025-11-25' : '2026-07-28', 'negotiated protocol version');
  });

  if (legacy) await t.run('ping', () => c.ping());
  else await t.run('server/discover', async () => assert.ok((await c.discover()).supportedVersions.includes('2026-07-28')));

  let tools = [];
  await t.run('tools/list parses and every schema compiles (Ajv 2020-12)', async () => {
    ({ tools } = await c.listTools());
    const names = tools.map((x) => x.name);
    for (const n of ['test_simple_text', 'test_tool_with_progress', 'test_sampling', 'json_schema_2020_12_tool']) {
      assert.ok(names.includes(n), `tool ${n} listed`);
    }
    compileSchemas(tools);
  });

  await t.run('tools/call: text', async () => {
    const r = await peer.callTool({ name: 'test_simple_text', arguments: {} });
    assert.equal(textOf(r), 'This is a simple text response for testing.');
  });

  await t.run('tools/call: image, audio, embedded resource, mixed content', async () => {
    const img = await peer.callTool({ name: 'test_image_content', arguments: {} });
    assert.equal(img.content[0].type, 'image');
    assert.equal(img.content[0].mimeType, 'image/png');
    assert.ok(Buffer.from(img.content[0].data, 'base64').subarray(0, 4).equals(PNG_MAGIC), 'PNG bytes');
    const audio = await peer.callTool({ name: 'test_audio_content', arguments: {} });
    assert.equal(audio.content[0].type, 'audio');
    const emb = await peer.callTool({ name: 'test_embedded_resource', arguments: {} });
    assert.equal(emb.content[0].type, 'resource');
    assert.equal(emb.content[0].resource.uri, 'test://embedded-resource');
    const mixed = await peer.callTool({ name: 'test_multiple_content_types', arguments: {} });
    assert.deepEqual(mixed.content.map((x) => x.type), ['text', 'image', 'resource']);
  });

  await t.run('tools/call: JSON Schema 2020-12 tool', async () => {
    const r = await peer.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'Ada', contactMethod: 'email', email: 'ada@example.com' } });
    assert.ok(!r.isError, `isError: ${textOf(r)}`);
    assert.match(textOf(r), /^Received: /);
  });

  await t.run('tools/call: non-ASCII arguments round-trip (and Mcp-Param-Region on 2026-07-28 HTTP)', async () => {
    for (const region of ['eu-west-1', 'Zürich 🌍 "quoted" \\ \u2028 <&>', '  padded  ']) {
      const r = await peer.callTool({ name: 'test_custom_header', arguments: { region } });
      assert.ok(!r.isError, textOf(r));
      assert.equal(textOf(r), 'Region: ' + region);
    }
  });

  await t.run('tools/call: tool error is a result with isError', async () => {
    const r = await peer.callTool({ name: 'test_error_handling', arguments: {} });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /intentionally returns an error/);
  });

  await t.run('tools/call: invalid arguments are a result with isError', async () => {
    const r = await peer.callTool({ name: 'test_sampling', arguments: { prompt: 42 } });
    assert.equal(r.isError, true, `expected isError, got ${JSON.stringify(r)}`);
  });

  if (legacy) {
    await t.run('logging/setLevel', () => c.setLoggingLevel('debug'));
  }

  await t.run('tools/call with logging notifications', async () => {
    const before = peer.logs.length;
    const r = await peer.callTool({ name: 'test_tool_with_logging', arguments: {}, ...modernMeta(peer) });
    assert.equal(textOf(r), 'Tool with logging executed successfully');
    const got = peer.logs.slice(before).map((m) => (typeof m.data === 'string' ? m.data : JSON.stringify(m.data)));
    for (const want of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
      assert.ok(got.some((d) => d.includes(want)), `log "${want}" received (got ${JSON.stringify(got)})`);
    }
    assert.ok(peer.logs.slice(before).every((m) => m.level === 'info'), 'level info');
  });

  await t.run('tools/call with progress notifications', async () => {
    const progress = [];
    const r = await peer.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p) });
    assert.match(textOf(r), /^Progress tool completed/);
    checkProgress(peer, 'test_tool_with_progress', progress, [0, 50, 100]);
    assert.ok(progress.every((p) => p.total === 100), 'total 100');
    assert.equal(progress[1].message, 'Completed step 50 of 100');
  });

  await t.run(`sampling round trip${legacy ? '' : ' (input_required)'}`, async () => {
    const r = await peer.callTool({ name: 'test_sampling', arguments: { prompt: 'What is the capital of France?' } });
    assert.ok(!r.isError, textOf(r));
    assert.equal(textOf(r), 'LLM response: ' + SAMPLED_TEXT);
  });

  await t.run(`elicitation round trip${legacy ? '' : ' (input_required)'}`, async () => {
    const r = await peer.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    assert.ok(!r.isError, textOf(r));
    const text = textOf(r);
    assert.match(text, /action=accept/);
    assert.match(text, /"username":"ada"/);
    assert.match(text, /"email":"ada@example.com"/);
  });

  await t.run(`several questions at once, two rounds, and a prompt that asks${legacy ? '' : ' (input_required)'}`, async () => {
    const many = await peer.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
    assert.equal(textOf(many), `name=ada greeting=${SAMPLED_TEXT} roots=1`);
    const rounds = await peer.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
    assert.equal(textOf(rounds), 'ada likes x');
    const p = await c.getPrompt({ name: 'test_input_required_result_prompt' });
    assert.equal(p.messages[0].content.text, 'Use this context: x');
  });

  await t.run('elicitation declined', async () => {
    const r = await peer.callTool({ name: 'test_elicitation', arguments: { message: 'decline me' } });
    assert.ok(!r.isError, textOf(r));
    assert.match(textOf(r), /action=decline/);
  });

  await t.run('elicitation schemas: SEP-1034 defaults and SEP-1330 enums pass the SDK validation', async () => {
    peer.elicitations.length = 0;
    const d = await peer.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
    assert.ok(!d.isError, textOf(d));
    assert.match(textOf(d), /^Elicitation completed: action=accept/);
    const e = await peer.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
    assert.ok(!e.isError, textOf(e));
    const [defaults, enums] = peer.elicitations.map((p) => p.requestedSchema.properties);
    assert.equal(defaults.name.default, 'John Doe');
    assert.equal(defaults.age.default, 30);
    assert.equal(defaults.score.default, 95.5);
    assert.equal(defaults.verified.default, true);
    assert.deepEqual(defaults.status.enum, ['active', 'inactive', 'pending']);
    assert.deepEqual(enums.untitledSingle.enum, ['option1', 'option2', 'option3']);
    assert.deepEqual(enums.titledSingle.oneOf.map((o) => o.const), ['value1', 'value2', 'value3']);
    assert.deepEqual(enums.legacyEnum.enumNames, ['Option One', 'Option Two', 'Option Three']);
    assert.equal(enums.untitledMulti.type, 'array');
    assert.deepEqual(enums.titledMulti.items.anyOf.map((o) => o.title), ['First Choice', 'Second Choice', 'Third Choice']);
  });

  await t.run('concurrent calls: 16 in flight on one connection', async () => {
    const calls = [];
    for (let i = 0; i < 16; i++) {
      const uri = `test://template/${i}/data`;
      calls.push(i % 2 ? peer.callTool({ name: 'test_simple_text', arguments: {} }).then(textOf) : c.readResource({ uri }).then((r) => JSON.parse(r.contents[0].text).id));
    }
    const got = await Promise.all(calls);
    got.forEach((v, i) => assert.equal(v, i % 2 ? 'This is a simple text response for testing.' : String(i)));
  });

  await t.run(`roots round trip${legacy ? '' : ' (input_required)'}`, async () => {
    const r = await peer.callTool({ name: 'test_input_required_result_list_roots', arguments: {} });
    assert.ok(!r.isError, textOf(r));
    assert.equal(textOf(r), 'Roots: ' + ROOT.uri);
  });

  await t.run('resources/list and resources/templates/list', async () => {
    const { resources } = await c.listResources();
    const uris = resources.map((r) => r.uri);
    for (const u of ['test://static-text', 'test://static-binary']) assert.ok(uris.includes(u), `resource ${u} listed`);
    const st = resources.find((r) => r.uri === 'test://static-text');
    assert.equal(st.mimeType, 'text/plain');
    const { resourceTemplates } = await c.listResourceTemplates();
    assert.ok(resourceTemplates.some((x) => x.uriTemplate === 'test://template/{id}/data'), 'template listed');
  });

  await t.run('resources/read: text, blob, template', async () => {
    const text = await c.readResource({ uri: 'test://static-text' });
    assert.equal(text.contents[0].text, 'This is the content of the static text resource.');
    const bin = await c.readResource({ uri: 'test://static-binary' });
    assert.ok(Buffer.from(bin.contents[0].blob, 'base64').subarray(0, 4).equals(PNG_MAGIC), 'blob is a PNG');
    const tpl = await c.readResource({ uri: 'test://template/42/data' });
    const data = JSON.parse(tpl.contents[0].text);
    assert.equal(data.id, '42');
    assert.equal(data.templateTest, true);
  });

  if (legacy && c.getServerCapabilities()?.resources?.subscribe) {
    await t.run('resources/subscribe and unsubscribe', async () => {
      await c.subscribeResource({ uri: 'test://watched-resource' });
      await c.unsubscribeResource({ uri: 'test://watched-resource' });
    });
  }

  await t.run('prompts/list and prompts/get', async () => {
    const { prompts } = await c.listPrompts();
    const p = prompts.find((x) => x.name === 'test_prompt_with_arguments');
    assert.ok(p, 'prompt listed');
    assert.deepEqual(p.arguments.map((a) => a.name).sort(), ['arg1', 'arg2']);
    const got = await c.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    assert.equal(got.messages[0].role, 'user');
    assert.equal(got.messages[0].content.text, "Prompt with arguments: arg1='a', arg2='b'");
    const img = await c.getPrompt({ name: 'test_prompt_with_image' });
    assert.equal(img.messages[0].content.type, 'image');
  });

  await t.run('completion/complete', async () => {
    const r = await c.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'tes' } });
    assert.deepEqual(r.completion.values.slice().sort(), ['test', 'tested', 'testing']);
  });

  if (legacy) {
    await t.run('notifications/tools/list_changed', async () => {
      await peer.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      await waitFor(() => peer.listChanged.includes('notifications/tools/list_changed'), 3000, 'tools/list_changed');
    });
  } else {
    await t.run('subscriptions/listen: list_changed on the listen stream, then close', async () => {
      const sub = await c.listen({ toolsListChanged: true, promptsListChanged: true });
      await peer.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
      await waitFor(() => peer.listChanged.includes('notifications/prompts/list_changed'), 3000, 'prompts/list_changed');
      await sub.close();
    });
  }

  await t.run('cancellation: aborted call, then the session still works', async () => {
    const ac = new AbortController();
    const call = peer.callTool({ name: 'test_tool_with_logging', arguments: {} }, { signal: ac.signal });
    setTimeout(() => ac.abort('interop test'), 20);
    await assert.rejects(call);
    const r = await peer.callTool({ name: 'test_simple_text', arguments: {} });
    assert.equal(textOf(r), 'This is a simple text response for testing.');
  });

  if (peer.transport === 'http') {
    await t.run('SSE stream closed mid-call: the client resumes with Last-Event-ID (SEP-1699)', async () => {
      const r = await peer.callTool({ name: 'test_reconnection', arguments: {} });
      assert.match(textOf(r), /^Reconnection test completed successfully/);
    });
  }
}

// helloSuite checks the hello demo: generated schemas (with validation
// rules), structured output validated by the SDK against the output schema,
// progress and logs, and argument validation errors.
export async function helloSuite(t, peer) {
  const c = peer.client;
  await t.run('connect: server identity and instructions', async () => {
    assert.equal(c.getServerVersion()?.name, 'hello');
    assert.match(c.getInstructions() || '', /demo server/);
  });
  let tools = [];
  await t.run('tools/list: generated schemas parse and compile', async () => {
    ({ tools } = await c.listTools());
    assert.deepEqual(tools.map((x) => x.name).sort(), ['add', 'countdown', 'greet']);
    compileSchemas(tools);
    const add = tools.find((x) => x.name === 'add');
    assert.deepEqual(add.inputSchema.required.slice().sort(), ['a', 'b']);
    assert.equal(add.inputSchema.properties.b.minimum, 0);
    assert.equal(add.annotations?.readOnlyHint, true);
    const cd = tools.find((x) => x.name === 'countdown');
    assert.equal(cd.outputSchema?.type, 'object');
  });
  await t.run('tools/call add: structured result', async () => {
    const r = await peer.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    assert.equal(textOf(r), '5');
    assert.deepEqual(r.structuredContent, { result: 5 });
  });
  await t.run('tools/call greet: default and enum argument', async () => {
    assert.equal(textOf(await peer.callTool({ name: 'greet', arguments: { name: 'Ada' } })), 'Hello, Ada!');
    assert.equal(textOf(await peer.callTool({ name: 'greet', arguments: { name: 'Ada', language: 'fr' } })), 'Bonjour, Ada !');
  });
  if (peer.era === 'legacy') await t.run('logging/setLevel', () => c.setLoggingLevel('debug'));
  await t.run('tools/call countdown: progress, logs, output schema validated by the SDK', async () => {
    const before = peer.logs.length;
    const progress = [];
    const r = await peer.callTool({ name: 'countdown', arguments: { from: 3 }, ...modernMeta(peer) }, { onprogress: (p) => progress.push(p) });
    assert.deepEqual(r.structuredContent, { launched: true, message: 'liftoff' });
    checkProgress(peer, 'countdown', progress, [1, 2, 3]);
    const logs = peer.logs.slice(before);
    assert.deepEqual(logs.map((m) => m.level), ['debug', 'debug', 'debug', 'info']);
  });
  await t.run('tools/call with invalid arguments: isError naming the fields', async () => {
    const r = await peer.callTool({ name: 'add', arguments: { a: 'two', b: -1 } });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /\ba\b/);
    assert.match(textOf(r), /\bb\b/);
  });
}
