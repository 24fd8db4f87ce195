// Shared helpers for the interop programs: a check runner that prints one
// line per check, a wire tap that records every JSON-RPC message for the
// failure report, and small assertions.

import assert from 'node:assert/strict';

export { assert };

// Checks runs named checks in order and prints "ok   name" or
// "FAIL name: why" for each. done() prints the summary line and returns the
// process exit code.
export class Checks {
  constructor(label) {
    this.label = label;
    this.passed = 0;
    this.failed = 0;
    this.wire = [];
  }

  async run(name, fn) {
    try {
      await withTimeout(fn(), 20000, name);
      this.passed++;
      console.log(`ok   ${name}`);
    } catch (err) {
      this.failed++;
      console.log(`FAIL ${name}: ${oneLine(err)}`);
    }
  }

  // skip records a check that does not apply, with the reason.
  skip(name, why) {
    console.log(`skip ${name}: ${why}`);
  }

  done() {
    if (this.failed > 0 && this.wire.length > 0) {
      console.log('--- last messages on the wire (> sent, < received)');
      for (const [dir, msg] of this.wire.slice(-12)) {
        console.log(`${dir} ${truncate(JSON.stringify(msg), 300)}`);
      }
    }
    console.log(`${this.passed} passed, ${this.failed} failed`);
    return this.failed > 0 ? 1 : 0;
  }
}

function oneLine(err) {
  let s = err && err.message ? err.message : String(err);
  if (err && err.code !== undefined && !s.includes(String(err.code))) s += ` (code ${err.code})`;
  return truncate(s.replace(/\s+/g, ' '), 600);
}

function truncate(s, n) {
  return s.length > n ? s.slice(0, n) + '…' : s;
}

export function withTimeout(p, ms, what) {
  let t;
  const timeout = new Promise((_, reject) => {
    t = setTimeout(() => reject(new Error(`${what}: timed out after ${ms}ms`)), ms);
  });
  return Promise.race([Promise.resolve(p), timeout]).finally(() => clearTimeout(t));
}

// tap records every message the transport sends and receives into log.
// Call it before connecting: Protocol.connect assigns onmessage.
export function tap(transport, log) {
  const send = transport.send.bind(transport);
  transport.send = (msg, opts) => {
    log.push(['>', msg]);
    return send(msg, opts);
  };
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler && ((msg, extra) => {
      log.push(['<', msg]);
      return handler(msg, extra);
    }),
    set: (h) => {
      handler = h;
    },
  });
  return transport;
}

// initializeResult finds the server's answer to initialize in a tapped log.
export function initializeResult(log) {
  const req = log.find(([dir, m]) => dir === '>' && m.method === 'initialize');
  if (!req) return undefined;
  const res = log.find(([dir, m]) => dir === '<' && m.id === req[1].id && !m.method);
  return res && res[1].result;
}

// wireProgress returns the progress values the server sent for the last
// tools/call of tool before its response, as seen on the wire.
export function wireProgress(log, tool) {
  let i = log.length - 1;
  while (i >= 0 && !(log[i][0] === '>' && log[i][1].method === 'tools/call' && log[i][1].params?.name === tool)) i--;
  if (i < 0) return undefined;
  const req = log[i][1];
  const token = req.params?._meta?.progressToken;
  const out = [];
  for (const [dir, m] of log.slice(i + 1)) {
    if (dir !== '<') continue;
    if (m.id === req.id && !m.method) return out;
    if (m.method === 'notifications/progress' && m.params.progressToken === token) out.push(m.params.progress);
  }
  return out;
}

// textOf returns the text of the first text block of a result's content.
export function textOf(result) {
  const block = (result.content || []).find((c) => c.type === 'text');
  return block ? block.text : undefined;
}

// waitFor polls cond until it holds or ms pass.
export async function waitFor(cond, ms, what) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// parseArgs reads "--key value" pairs and bare flags after the positional
// arguments. Positional arguments come first; "--" ends option parsing and
// the rest are positional (a server command and its arguments).
export function parseArgs(argv) {
  const opts = {};
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      pos.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const key = a.slice(2);
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        opts[key] = true;
      } else {
        opts[key] = next;
        i++;
      }
    } else {
      pos.push(a);
    }
  }
  return { opts, pos };
}

// PNG is the first bytes of every PNG file.
export const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
