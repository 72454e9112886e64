// The binary spawned directly and driven line by line: framing, errors, versions, batches,
// server/discover. Every line the server writes is validated (helpers.ConnectionValidator).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  LEGACY_VERSIONS, MODERN_VERSION, RawSession, SERVER_INFO_KEY, assertNoProblems, assertReadResult,
  makeTempDir, modernMeta, requireBinary, writeFixtures, show, withRawSession,
} from './helpers.mjs';

requireBinary();
const root = makeTempDir();
const fixtures = writeFixtures(root);

/** Runs `body(session)` against a fresh server and checks every line it wrote. */
const withSession = (label, body, args = []) =>
  withRawSession(label, ['--root', root, '--no-fsync', ...args], body, { cleanExit: true });

const isError = (code) => (m) => m && m.error && m.error.code === code;

describe('lifecycle', () => {
  test('cold start: initialize answered promptly, then exit 0 on EOF', async (t) => {
    await withSession('cold start', async (s) => {
      const t0 = Date.now();
      const r = await s.request(0, 'initialize', {
        protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' },
      }, { timeout: 5000 });
      const ms = Date.now() - t0;
      t.diagnostic(`initialize answered ${ms} ms after spawn`);
      assert.ok(r.result, `initialize failed: ${show(r)}`);
      assert.equal(r.result.protocolVersion, '2025-11-25', 'preferred version 2025-11-25 must be accepted as asked');
      assert.ok(ms < 2000, `initialize took ${ms} ms after spawn; a cold start should answer well under 2 s`);
      assert.deepEqual(r.result.capabilities?.tools, { listChanged: false },
        `capabilities.tools must be {listChanged:false}, got ${show(r.result.capabilities)}`);
      assert.deepEqual(r.result.capabilities?.logging, {}, `capabilities.logging must be {} (logging/setLevel is implemented), got ${show(r.result.capabilities)}`);
      assert.equal(typeof r.result.serverInfo?.name, 'string', 'serverInfo.name');
      assert.equal(typeof r.result.serverInfo?.version, 'string', 'serverInfo.version');
      s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const p = await s.request(1, 'ping');
      assert.deepEqual(p.result, {}, `ping must answer exactly {}, got ${show(p)}`);
    });
  });

  test('every legacy version is accepted as asked; an unknown one gets 2025-11-25', async () => {
    const cases = [...LEGACY_VERSIONS.map((v) => [v, v]), ['1999-01-01', '2025-11-25']];
    await Promise.all(cases.map(([asked, expected]) => withSession(`initialize ${asked}`, async (s) => {
      const r = await s.request(1, 'initialize', {
        protocolVersion: asked, capabilities: {}, clientInfo: { name: 'raw', version: '0' },
      });
      assert.equal(r.result?.protocolVersion, expected, `initialize asking ${asked}: expected ${expected}, got ${show(r)}`);
    })));
  });

  test('ids are echoed with their JSON type (0, string), notifications get no reply', async () => {
    await withSession('ids', async (s) => {
      await s.initialize('2025-11-25', {}, 'init-string-id');
      s.send({ jsonrpc: '2.0', method: 'notifications/some_unknown_notification', params: {} });
      const a = await s.request(0, 'ping');
      assert.deepEqual(a, { jsonrpc: '2.0', id: 0, result: {} }, `ping id 0: ${show(a)}`);
      const b = await s.request('zero', 'ping');
      assert.deepEqual(b, { jsonrpc: '2.0', id: 'zero', result: {} }, `ping id "zero": ${show(b)}`);
      const c = await s.request(-7, 'ping');
      assert.deepEqual(c, { jsonrpc: '2.0', id: -7, result: {} }, `ping id -7: ${show(c)}`);
      await s.request('barrier', 'ping');  // whatever the lines before it caused has been sent
      const left = s.unconsumed().filter((m) => m?.method !== 'notifications/message');
      assert.deepEqual(left, [], `nothing else may be sent (a notification gets no reply): ${show(left)}`);
    });
  });
});

describe('errors', () => {
  test('unknown method before initialize gets -32601 at once (dual-era probes must not hang)', async () => {
    await withSession('unknown before init', async (s) => {
      const r = await s.request(7, 'no/such/method', {}, { timeout: 2000 });
      assert.equal(r.error?.code, -32601, `expected -32601, got ${show(r)}`);
      assert.equal(r.id, 7);
      // and the session can still be initialized afterwards
      await s.initialize();
      const r2 = await s.request(8, 'another/unknown');
      assert.equal(r2.error?.code, -32601, `after initialize: expected -32601, got ${show(r2)}`);
    });
  });

  test('malformed JSON gets -32700 without id, and the server keeps serving', async () => {
    await withSession('malformed', async (s) => {
      s.send('{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {');
      const e = await s.next(isError(-32700), { what: 'a -32700 parse error' });
      assert.ok(!('id' in e), `an error for an unreadable message leaves id out, got ${show(e)}`);
      s.send('this is not json at all');
      await s.next(isError(-32700), { what: 'a second -32700' });
      await s.initialize();
      const p = await s.request(2, 'ping');
      assert.deepEqual(p.result, {}, `ping after parse errors: ${show(p)}`);
    });
  });

  test('invalid UTF-8, deep nesting and an over-long line get an error reply; the server keeps serving', async () => {
    await withSession('hostile input', async (s) => {
      await s.initialize();
      // invalid UTF-8 inside a JSON string
      s.child.stdin.write(Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":"'),
        Buffer.from([0xff, 0xfe, 0xc0]),
        Buffer.from('"}}\n'),
      ]));
      const u = await s.next((m) => m && m.error && (m.id === 10 || !('id' in m)), { what: 'an error reply to invalid UTF-8' });
      assert.ok(u.error.code < 0, show(u));
      // deeply nested JSON
      s.send('{"jsonrpc":"2.0","id":11,"method":"ping","params":{"a":' + '['.repeat(100000) + ']'.repeat(100000) + '}}');
      const n = await s.next((m) => m && m.error && (m.id === 11 || !('id' in m)), { what: 'an error reply to 100000-deep nesting' });
      assert.ok(n.error.code < 0, show(n));
      // a line over --max-message-size (set to 4096 below)
      s.send({ jsonrpc: '2.0', id: 12, method: 'ping', params: { pad: 'x'.repeat(10000) } });
      const l = await s.next((m) => m && m.error && (m.id === 12 || !('id' in m)), { what: 'an error reply to a line over --max-message-size' });
      assert.ok(l.error.code < 0, show(l));
      const p = await s.request(13, 'ping');
      assert.deepEqual(p.result, {}, `ping after hostile input: ${show(p)}`);
    }, ['--max-message-size', '4096']);
  });
});

describe('2025-03-26 batches', () => {
  test('a batch is answered with one array holding each response', async () => {
    await withSession('batch', async (s) => {
      await s.initialize('2025-03-26');
      s.send([
        { jsonrpc: '2.0', id: 21, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999, reason: 'none' } },
        { jsonrpc: '2.0', id: 22, method: 'tools/list' },
      ]);
      const arr = await s.next((m) => Array.isArray(m), { what: 'a batch reply (array)' });
      const ids = arr.map((m) => m.id).sort();
      assert.deepEqual(ids, [21, 22], `the batch reply must hold exactly the two responses, got ${show(arr).slice(0, 500)}`);
      const ping = arr.find((m) => m.id === 21);
      assert.deepEqual(ping.result, {}, `ping inside the batch: ${show(ping)}`);
      const list = arr.find((m) => m.id === 22);
      assert.ok(Array.isArray(list.result?.tools), `tools/list inside the batch: ${show(list).slice(0, 300)}`);
    });
  });
});

describe('modern era (2026-07-28) over raw lines', () => {
  test('server/discover before anything gets a DiscoverResult offering 2026-07-28', async (t) => {
    await withSession('discover', async (s) => {
      const r = await s.request('server-discover-probe-1', 'server/discover', { _meta: modernMeta({ elicitation: { form: {} } }) }, { timeout: 2000 });
      assert.ok(r.result, `server/discover failed: ${show(r)}`);
      const d = r.result;
      assert.equal(d.resultType, 'complete', `resultType: ${show(d)}`);
      assert.ok(Array.isArray(d.supportedVersions) && d.supportedVersions.includes(MODERN_VERSION),
        `supportedVersions must include ${MODERN_VERSION}: ${show(d.supportedVersions)}`);
      assert.ok(d.capabilities && typeof d.capabilities.tools === 'object',
        `capabilities.tools must be present (else the 2.4.0 client lists no tools): ${show(d.capabilities)}`);
      assert.ok(Number.isInteger(d.ttlMs) && d.ttlMs >= 0, `ttlMs: ${show(d.ttlMs)}`);
      assert.ok(['public', 'private'].includes(d.cacheScope), `cacheScope: ${show(d.cacheScope)}`);
      if (!d._meta?.[SERVER_INFO_KEY]) t.diagnostic(`DiscoverResult has no _meta["${SERVER_INFO_KEY}"] (a SHOULD): getServerVersion() stays undefined in client 2.4.0`);
      // the same process keeps serving modern requests
      const l = await s.request(1, 'tools/list', { _meta: modernMeta() });
      assert.equal(l.result?.resultType, 'complete', `modern tools/list: ${show(l).slice(0, 300)}`);
    });
  });

  test('modern requests without any discover or initialize: tools/list and tools/call carry resultType', async () => {
    await withSession('modern stateless', async (s) => {
      const l = await s.request(0, 'tools/list', { _meta: modernMeta() });
      assert.ok(l.result, `tools/list failed: ${show(l)}`);
      assert.equal(l.result.resultType, 'complete', 'tools/list resultType');
      assert.ok(Number.isInteger(l.result.ttlMs) && l.result.ttlMs >= 0, `tools/list ttlMs: ${show(l.result.ttlMs)}`);
      assert.ok(['public', 'private'].includes(l.result.cacheScope), `tools/list cacheScope: ${show(l.result.cacheScope)}`);
      const fx = fixtures['crlf.txt'];
      const c = await s.request(1, 'tools/call', { name: 'read', arguments: { file_path: fx.path }, _meta: modernMeta() });
      assert.ok(c.result, `tools/call failed: ${show(c)}`);
      assert.equal(c.result.resultType, 'complete', 'tools/call resultType');
      assertReadResult(c.result, fx, { file_path: fx.path }, 'crlf.txt (modern raw)');
    });
  });

  test('an unsupported modern protocol version gets -32022 listing the supported ones', async () => {
    await withSession('unsupported version', async (s) => {
      const r = await s.request(3, 'tools/list', { _meta: modernMeta({}, '2099-01-01') });
      assert.equal(r.error?.code, -32022, `expected -32022 UnsupportedProtocolVersion, got ${show(r)}`);
      assert.ok(Array.isArray(r.error.data?.supported) && r.error.data.supported.includes(MODERN_VERSION),
        `error.data.supported must list ${MODERN_VERSION}: ${show(r.error)}`);
      assert.equal(r.error.data?.requested, '2099-01-01', `error.data.requested: ${show(r.error)}`);
    });
  });
});

describe('stdout hygiene', () => {
  test('--log-level debug writes logs to stderr only', async () => {
    const s = await withSession('debug logs', async (s) => {
      await s.initialize();
      const fx = fixtures['lf.txt'];
      const r = await s.request(5, 'tools/call', { name: 'read', arguments: { file_path: path.relative(root, fx.path) } });
      assertReadResult(r.result, fx, { file_path: 'lf.txt' }, 'lf.txt relative path (raw)');
    }, ['--log-level', 'debug']);
    // stdout: JSON-RPC messages only (each was also validated against the schema).
    assert.ok(s.messages.length >= 2, `expected the initialize and read replies on stdout, got ${s.messages.length} line(s)`);
    for (const m of s.messages) {
      assert.ok(m.msg !== undefined && m.msg.jsonrpc === '2.0', `a stdout line that is not a JSON-RPC message: ${show(m.raw.slice(0, 300))}`);
    }
    // stderr: the log lines arrived there, debug ones included, and nothing but log lines.
    const lines = s.stderr.text.split('\n').filter((l) => l !== '');
    const logLine = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3} (trace|debug|info|warning|warn|error|critical) /;
    assert.deepEqual(lines.filter((l) => !logLine.test(l)), [], `stderr must hold log lines only; all of it:\n${s.stderr.text}`);
    assert.ok(lines.some((l) => / debug serving on stdio; roots: /.test(l) && l.includes(root)),
      `stderr must carry the debug line "serving on stdio; roots: ${root}"; stderr was:\n${s.stderr.text || '(empty)'}`);
    assert.ok(lines.some((l) => / info initialize: client mcp-edit-e2e-raw /.test(l)),
      `stderr must carry the info line about initialize; stderr was:\n${s.stderr.text || '(empty)'}`);
  });
});

describe('approval in the legacy era (raw lines)', () => {
  const fileWith = (content) => {
    const dir = makeTempDir();
    const file = path.join(dir, 'target.txt');
    fs.writeFileSync(file, content);
    return { dir, file };
  };
  const isElicit = (m) => m && m.method === 'elicitation/create' && 'id' in m;
  /** The elicitation/create the server sends while tools/call `callId` is in flight. */
  const waitForElicit = async (s, callId) => {
    const m = await s.next((x) => isElicit(x) || (x && x.id === callId && !('method' in x)),
      { what: `an elicitation/create request (or the reply to tools/call ${callId})` });
    assert.ok(isElicit(m), `expected an elicitation/create request while tools/call ${callId} waits, but the call was answered: ${show(m).slice(0, 400)}`);
    return m;
  };
  const decisionValues = (d) => (d?.enum ?? d?.oneOf?.map((o) => o.const) ?? []).slice().sort();

  for (const version of ['2025-11-25', '2025-06-18']) {
    test(`${version}: the edit waits for the form; ping goes on meanwhile; apply writes`, async () => {
      const { dir, file } = fileWith('one\ntwo\nthree\n');
      const s = new RawSession(['--root', dir, '--no-fsync'], { label: `approval ${version}` });
      try {
        await s.initialize(version, { elicitation: {} });
        s.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'edit', arguments: { file_path: file, old_string: 'two', new_string: 'TWO' } } });
        const ask = await waitForElicit(s, 5);
        const p = ask.params;
        const decision = p.requestedSchema?.properties?.decision;
        assert.deepEqual(decisionValues(decision), ['apply', 'apply_session', 'reject'], `decision field: ${show(decision)}`);
        assert.ok((p.requestedSchema.required ?? []).includes('decision'), 'decision must be required');
        if (version === '2025-06-18') {
          assert.ok(!('mode' in p), `omit mode for 2025-06-18 clients: ${show(p).slice(0, 300)}`);
          assert.ok(Array.isArray(decision.enum) && Array.isArray(decision.enumNames), `2025-06-18 needs enum + enumNames: ${show(decision)}`);
        }
        assert.ok(p.message.includes('target.txt'), `the message must say what will change: ${show(p.message).slice(0, 300)}`);
        const ping = await s.request(6, 'ping');
        assert.deepEqual(ping.result, {}, 'ping must be answered while the approval waits');
        assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\n', 'nothing written before the answer');
        s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { decision: 'apply' } } });
        const r = await s.response(5);
        assert.notEqual(r.result?.isError, true, `approved edit: ${show(r).slice(0, 500)}`);
        assert.equal(r.result?.structuredContent?.approval, 'user', `approval: ${show(r.result?.structuredContent)}`);
        assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\n', 'approved edit on disk');
      } finally {
        await s.close();
      }
      assertNoProblems(s.validator.problems, `approval ${version}`);
    });
  }

  test('accept without an explicit apply (content {}) writes nothing', async () => {
    const { dir, file } = fileWith('keep me\n');
    const s = new RawSession(['--root', dir, '--no-fsync'], { label: 'accept {}' });
    try {
      await s.initialize('2025-11-25', { elicitation: {} });
      s.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'edit', arguments: { file_path: file, old_string: 'keep', new_string: 'lose' } } });
      const ask = await waitForElicit(s, 5);
      s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: {} } });
      const r = await s.response(5);
      assert.equal(r.result?.isError, true, `accept without decision must fail closed: ${show(r).slice(0, 400)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'keep me\n');
    } finally {
      await s.close();
    }
    assertNoProblems(s.validator.problems, 'accept {}');
  });

  test('a call cancelled while it waits gets no reply and writes nothing', async () => {
    const { dir, file } = fileWith('stay\n');
    const s = new RawSession(['--root', dir, '--no-fsync'], { label: 'cancel while waiting' });
    try {
      await s.initialize('2025-11-25', { elicitation: {} });
      s.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'edit', arguments: { file_path: file, old_string: 'stay', new_string: 'gone' } } });
      await waitForElicit(s, 5);
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user pressed stop' } });
      const ping = await s.request(6, 'ping');
      assert.deepEqual(ping.result, {});
      // Deliberate: a window in which a reply to the cancelled call, or its write, would come.
      await new Promise((r) => setTimeout(r, 300));
      const reply = s.messages.find((m) => m.msg && m.msg.id === 5 && !('method' in m.msg));
      assert.equal(reply, undefined, `a cancelled request gets no response: ${show(reply?.msg)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'stay\n', 'nothing written after cancel');
    } finally {
      await s.close();
    }
    assertNoProblems(s.validator.problems, 'cancel while waiting');
  });

  test('--approval require refuses when the client cannot be asked; --approval auto writes', async () => {
    const a = fileWith('x = 1\n');
    const s1 = new RawSession(['--root', a.dir, '--no-fsync', '--approval', 'require'], { label: 'require' });
    try {
      await s1.initialize('2025-11-25', {});
      const r = await s1.request(5, 'tools/call', { name: 'edit', arguments: { file_path: a.file, old_string: '1', new_string: '2' } });
      assert.equal(r.result?.isError, true, `require + no elicitation must refuse: ${show(r).slice(0, 400)}`);
      assert.equal(fs.readFileSync(a.file, 'utf8'), 'x = 1\n');
    } finally {
      await s1.close();
    }
    assertNoProblems(s1.validator.problems, 'require');
    const b = fileWith('x = 1\n');
    const s2 = new RawSession(['--root', b.dir, '--no-fsync', '--approval', 'auto'], { label: 'auto' });
    try {
      await s2.initialize('2025-11-25', { elicitation: {} });
      const r = await s2.request(5, 'tools/call', { name: 'edit', arguments: { file_path: b.file, old_string: '1', new_string: '2' } });
      assert.notEqual(r.result?.isError, true, `auto must write: ${show(r).slice(0, 400)}`);
      assert.equal(fs.readFileSync(b.file, 'utf8'), 'x = 2\n');
      assert.ok(!s2.messages.some((m) => m.msg?.method === 'elicitation/create'), 'auto never asks');
    } finally {
      await s2.close();
    }
    assertNoProblems(s2.validator.problems, 'auto');
  });
});
