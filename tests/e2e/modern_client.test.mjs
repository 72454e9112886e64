// mcp-edit driven by @modelcontextprotocol/client 2.4.0 in the modern era (2026-07-28):
// `server/discover` probe (on a throw-away process), per-request `_meta`, `resultType` on every
// result, approval through Multi Round-Trip Requests (input_required + requestState).
// Every server process runs behind tap.mjs; all transcripts are validated.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  MODERN_VERSION, PV_KEY, READ_CASES, RawSession, assertNoProblems, assertReadResult,
  assertReadTool, drain, makeTempDir, modernMeta, outputValidator,
  requireBinary, tappedServer, validateTapDir, show, fixtureRoot,
} from './helpers.mjs';

requireBinary();
const { root, fixtures, boundary, tapDir } = fixtureRoot();
const CALL_OPTS = { timeout: 5000 };

let client;
let stderr;
let validateRead;

before(async () => {
  const transport = new StdioClientTransport(tappedServer(root, tapDir));
  stderr = drain(transport.stderr);
  client = new Client({ name: 'mcp-edit-e2e-modern', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport, { timeout: 10000 });
});

after(async () => {
  await client?.close().catch(() => {});
});

/** The tool-call results the server wrote, from the session transcript(s) in `dir`. */
function serverResults(dir, method) {
  const { connections } = validateTapDir(dir);
  const out = [];
  for (const c of connections) {
    const methodById = new Map();
    for (const { dir: d, msg } of c.messages) {
      if (d === 'c2s' && msg && msg.id !== undefined && msg.method) methodById.set(JSON.stringify(msg.id), msg);
      if (d === 's2c' && msg && 'result' in msg) {
        const req = methodById.get(JSON.stringify(msg.id));
        if (req?.method === method) out.push({ request: req, result: msg.result, file: c.file });
      }
    }
  }
  return out;
}

describe('connect in the 2026-07-28 era (client 2.4.0, versionNegotiation auto)', () => {
  test('negotiates 2026-07-28 through server/discover', async (t) => {
    assert.equal(client.getProtocolEra(), 'modern', `era: ${client.getProtocolEra()} (version ${client.getNegotiatedProtocolVersion()}); a DiscoverResult the client cannot parse silently falls back to legacy`);
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN_VERSION);
    const caps = client.getServerCapabilities();
    assert.ok(caps?.tools, `DiscoverResult.capabilities.tools: ${show(caps)}`);
    if (!client.getServerVersion()) t.diagnostic('no serverInfo in DiscoverResult._meta (a SHOULD)');
  });

  test('listTools shows read with valid schemas', async () => {
    const { tools } = await client.listTools(undefined, CALL_OPTS);
    const read = assertReadTool(tools, 'client 2.4.0 modern');
    validateRead = outputValidator(read);
  });

  for (const [label, name, extra] of READ_CASES) {
    test(`read: ${label}`, async () => {
      const fx = fixtures[name];
      const args = { file_path: fx.path, ...extra };
      const result = await client.callTool({ name: 'read', arguments: args }, CALL_OPTS);
      assertReadResult(result, fx, args, `${label} (modern)`);
      if (validateRead) {
        const err = validateRead(result.structuredContent);
        assert.equal(err, null, `read ${label}: structuredContent does not match read's outputSchema: ${err}`);
      }
    });
  }

  for (const [label, p, reason] of boundary) {
    test(`read refuses ${label} with isError`, async () => {
      const result = await client.callTool({ name: 'read', arguments: { file_path: p } }, CALL_OPTS);
      assert.equal(result.isError, true, `read ${p} (${label}) must be refused, got ${show(result).slice(0, 500)}`);
      assert.match(result.content?.[0]?.text ?? '', reason, `read ${p} (${label}): the refusal must match ${reason}; it says ${show(result.content?.[0]?.text)}`);
    });
  }

  test('an unknown tool is JSON-RPC error -32602', async () => {
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }, CALL_OPTS), (err) => {
      assert.equal(err.code, -32602, `unknown tool: expected -32602, got ${err.code} (${err.message})`);
      return true;
    });
  });

  test('wire: probe process answered server/discover; session process got _meta on every request and resultType on every result', async () => {
    await client.close();
    const { connections, problems } = validateTapDir(tapDir);
    assertNoProblems(problems, 'client 2.4.0 modern sessions');
    assert.equal(connections.length, 2, `expected a probe process and a session process, got ${connections.length}`);
    const probe = connections.find((c) => c.messages.some((m) => m.dir === 'c2s' && m.msg?.method === 'server/discover'));
    const session = connections.find((c) => c !== probe);
    assert.ok(probe && session, 'one process must have received server/discover, the other not');
    const discoverReply = probe.messages.find((m) => m.dir === 's2c' && 'result' in (m.msg ?? {}));
    assert.ok(discoverReply, `the probe got no result: ${show(probe.messages.map((m) => m.msg)).slice(0, 500)}`);
    for (const { dir, msg } of session.messages) {
      if (dir === 'c2s' && msg?.id !== undefined) {
        assert.equal(msg.params?._meta?.[PV_KEY], MODERN_VERSION, `client request without the modern _meta: ${show(msg).slice(0, 300)}`);
        assert.notEqual(msg.method, 'initialize', 'the modern session must not fall back to initialize');
      }
      if (dir === 's2c' && msg && 'result' in msg) {
        assert.equal(msg.result.resultType, 'complete', `every result here must say resultType "complete": ${show(msg).slice(0, 300)}`);
      }
    }
    // Both processes, the probe included, end with exit 0 (on EOF, or on the SIGTERM a client
    // sends after its grace period): a signal is no clean end.
    for (const c of connections) {
      assert.deepEqual(c.exit && { code: c.exit.code, signal: c.exit.signal }, { code: 0, signal: null },
        `server process ${c.file} did not exit 0: ${show(c.exit)}; its stderr:\n${c.stderr.slice(-1000)}`);
    }
    const calls = serverResults(tapDir, 'tools/call');
    assert.ok(calls.length >= READ_CASES.length, `expected at least ${READ_CASES.length} tools/call results, saw ${calls.length}`);
  });
});

describe('other connect modes of client 2.4.0', () => {
  test('versionNegotiation pin 2026-07-28 connects and reads', async () => {
    const dir = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(root, dir));
    drain(tr.stderr);
    const c = new Client({ name: 'mcp-edit-e2e-pin', version: '0.0.0' }, { versionNegotiation: { mode: { pin: MODERN_VERSION } } });
    try {
      await c.connect(tr, { timeout: 10000 });
      assert.equal(c.getProtocolEra(), 'modern');
      await c.listTools(undefined, CALL_OPTS);
      const fx = fixtures['mixed.txt'];
      assertReadResult(await c.callTool({ name: 'read', arguments: { file_path: fx.path } }, CALL_OPTS), fx, { file_path: fx.path }, 'mixed.txt (pinned)');
    } finally {
      await c.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(dir).problems, 'pinned client');
  });

  test('default (legacy) mode: initialize 2025-11-25 and read', async () => {
    const dir = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(root, dir));
    drain(tr.stderr);
    const c = new Client({ name: 'mcp-edit-e2e-v2-legacy', version: '0.0.0' });
    try {
      await c.connect(tr, { timeout: 10000 });
      assert.equal(c.getProtocolEra(), 'legacy');
      assert.equal(c.getNegotiatedProtocolVersion(), '2025-11-25');
      await c.listTools(undefined, CALL_OPTS);
      const fx = fixtures['latin1.txt'];
      assertReadResult(await c.callTool({ name: 'read', arguments: { file_path: fx.path } }, CALL_OPTS), fx, { file_path: fx.path }, 'latin1.txt (2.4.0 legacy)');
    } finally {
      await c.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(dir).problems, 'client 2.4.0 legacy mode');
  });
});

describe('approval through Multi Round-Trip Requests', () => {
  test('client 2.4.0 auto-fulfils input_required: apply writes, decline does not', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'approve-me.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(dir, tap));
    drain(tr.stderr);
    const c = new Client({ name: 'mcp-edit-e2e-mrtr', version: '0.0.0' }, {
      versionNegotiation: { mode: 'auto' },
      capabilities: { elicitation: { form: {} } },
    });
    const asked = [];
    let answer = { action: 'accept', content: { decision: 'apply' } };
    c.setRequestHandler('elicitation/create', async (req) => {
      asked.push(req.params);
      return answer;
    });
    try {
      await c.connect(tr, { timeout: 10000 });
      assert.equal(c.getProtocolEra(), 'modern');
      await c.listTools(undefined, CALL_OPTS);
      const r1 = await c.callTool({ name: 'edit', arguments: { file_path: file, old_string: 'two', new_string: 'TWO' } }, { timeout: 10000 });
      assert.notEqual(r1.isError, true, `approved edit failed: ${show(r1).slice(0, 600)}`);
      assert.equal(asked.length, 1, `one elicitation expected, got ${asked.length}`);
      const decision = asked[0].requestedSchema?.properties?.decision;
      assert.ok(decision, `the form must have a decision field: ${show(asked[0])}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\n', 'approved edit must be on disk');
      assert.equal(r1.structuredContent?.approval, 'user', `approval: ${show(r1.structuredContent)}`);

      answer = { action: 'decline' };
      const r2 = await c.callTool({ name: 'edit', arguments: { file_path: file, old_string: 'three', new_string: 'THREE' } }, { timeout: 10000 });
      assert.equal(r2.isError, true, `declined edit must be isError: ${show(r2).slice(0, 400)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\n', 'a declined edit must write nothing');
    } finally {
      await c.close().catch(() => {});
    }
    const { problems } = validateTapDir(tap);
    assertNoProblems(problems, 'MRTR session');
    const calls = serverResults(tap, 'tools/call');
    const first = calls.find((x) => x.result.resultType === 'input_required');
    assert.ok(first, 'the first tools/call must answer resultType "input_required"');
    assert.equal(typeof first.result.requestState, 'string', 'input_required must carry a requestState');
    const retry = calls.find((x) => x.request.params?.requestState === first.result.requestState);
    assert.ok(retry, 'the client retried with the requestState echoed');
    assert.notEqual(JSON.stringify(retry.request.id), JSON.stringify(first.request.id), 'the retry uses a new id');
  });

  test('requestState is integrity-protected and bound to the arguments (raw lines)', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'guarded.txt');
    const original = 'alpha\nbeta\ngamma\n';
    fs.writeFileSync(file, original);
    const s = new RawSession(['--root', dir, '--no-fsync'], { label: 'mrtr raw' });
    const caps = { elicitation: { form: {} } };
    const args = { file_path: file, old_string: 'beta', new_string: 'BETA' };
    try {
      const r0 = await s.request(1, 'tools/call', { name: 'edit', arguments: args, _meta: modernMeta(caps) });
      assert.equal(r0.result?.resultType, 'input_required', `the first edit call must ask for approval: ${show(r0).slice(0, 600)}`);
      const state = r0.result.requestState;
      assert.equal(typeof state, 'string', 'requestState');
      const [key, ir] = Object.entries(r0.result.inputRequests ?? {})[0] ?? [];
      assert.equal(ir?.method, 'elicitation/create', `inputRequests: ${show(r0.result.inputRequests)}`);
      const apply = { [key]: { action: 'accept', content: { decision: 'apply' } } };

      // 1. a tampered requestState is refused and writes nothing
      const mid = Math.floor(state.length / 2);
      const tampered = state.slice(0, mid) + (state[mid] === 'A' ? 'B' : 'A') + state.slice(mid + 1);
      const r1 = await s.request(2, 'tools/call', { name: 'edit', arguments: args, inputResponses: apply, requestState: tampered, _meta: modernMeta(caps) });
      assert.ok(r1.error || r1.result?.isError === true, `a tampered requestState must be refused: ${show(r1).slice(0, 500)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), original, 'tampered requestState: nothing may be written');

      // 1b. a non-canonical base64url spelling of the same state (unused low bits of the last
      //     character set) is a different string, and must be refused like any other tampering
      const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const seg = state.slice(state.lastIndexOf('.') + 1);
      const lastIdx = B64.indexOf(state.at(-1));
      if (lastIdx >= 0 && (seg.length % 4 === 2 || seg.length % 4 === 3) && !/[^A-Za-z0-9_-]/.test(seg)) {
        const malleable = state.slice(0, -1) + B64[lastIdx | 1];
        assert.notEqual(malleable, state);
        const r1b = await s.request(22, 'tools/call', { name: 'edit', arguments: args, inputResponses: apply, requestState: malleable, _meta: modernMeta(caps) });
        assert.ok(r1b.error || r1b.result?.isError === true,
          `a requestState whose last base64url character differs only in unused bits (${JSON.stringify(state.slice(-4))} -> ${JSON.stringify(malleable.slice(-4))}) must be refused; it was accepted: ${show(r1b).slice(0, 300)}`);
        assert.equal(fs.readFileSync(file, 'utf8'), original, 'non-canonical requestState: nothing may be written');
      }

      // 2. the genuine state with other arguments is not an approval of those arguments
      const evil = { ...args, new_string: 'EVIL' };
      const r2 = await s.request(3, 'tools/call', { name: 'edit', arguments: evil, inputResponses: apply, requestState: state, _meta: modernMeta(caps) });
      assert.ok(r2.error || r2.result?.isError === true || r2.result?.resultType === 'input_required',
        `requestState approved for other arguments must not apply: ${show(r2).slice(0, 500)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), original, 'requestState replayed with other arguments: nothing may be written');

      // 3. the genuine retry writes
      //    (a server may burn a state after a misuse and ask afresh: answer that once more)
      let r3 = await s.request(4, 'tools/call', { name: 'edit', arguments: args, inputResponses: apply, requestState: state, _meta: modernMeta(caps) });
      if (r3.result?.resultType === 'input_required') {
        const [k2] = Object.keys(r3.result.inputRequests ?? {});
        r3 = await s.request(5, 'tools/call', {
          name: 'edit', arguments: args, inputResponses: { [k2]: { action: 'accept', content: { decision: 'apply' } } },
          requestState: r3.result.requestState, _meta: modernMeta(caps),
        });
      }
      assert.equal(r3.result?.resultType, 'complete', `genuine retry: ${show(r3).slice(0, 500)}`);
      assert.notEqual(r3.result?.isError, true, `genuine retry failed: ${show(r3).slice(0, 500)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'alpha\nBETA\ngamma\n', 'the approved edit must be on disk');
    } finally {
      await s.close();
    }
    assertNoProblems(s.validator.problems, 'MRTR raw session');
  });
});
