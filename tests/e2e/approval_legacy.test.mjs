// The approval gate in the legacy era: the server asks through a server-to-client
// `elicitation/create` while the `tools/call` it serves is in flight. Driven by the official SDK
// 1.32.2 (every answer a human or a client can give, a timeout, a cancelled call) and by raw
// JSON lines where timing matters (cancel + late answer, concurrency while waiting, progress,
// the 2025-06-18 form). After every case the file on disk is compared byte for byte with what it
// must be; every line the server wrote is validated against the negotiated schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  RawSession, assertNoProblems, drain, makeTempDir, requireBinary, tappedServer, validateTapDir,
  assertFile, textOf, show, sleep, ORIGINAL, EDITED, EDIT_ARGS, withRawSession, newDir, assertRefusedChange, assertWrittenChange,
} from './helpers.mjs';

requireBinary();
const CALL = { timeout: 10000 };

// ---------------------------------------------------------------------------------------------
// small helpers



const assertRefused = assertRefusedChange;

function assertWritten(r, what, approval) {
  assertWrittenChange(r, what, approval);
  assert.equal(r.structuredContent.dry_run, false, `${what}: dry_run must be false, got ${show(r.structuredContent.dry_run)}`);
}

const decisionValues = (d) => (d?.enum ?? d?.oneOf?.map((o) => o.const) ?? []).slice().sort();


/**
 * A server behind the tap with an SDK 1.32.2 client. `s.answer(params, extra, n)` answers each
 * elicitation (n = 1, 2, ...); `s.asked` records {params, extra, aborted}.
 */
async function sdkSession(label, { dir, args = [], elicitation = true, clientName } = {}) {
  const tap = makeTempDir('mcp-edit-e2e-tap-');
  const tr = new StdioClientTransport(tappedServer(dir, tap, args));
  const stderr = drain(tr.stderr);
  const client = new Client({ name: clientName ?? `mcp-edit-e2e-${label.replace(/\W+/g, '-')}`, version: '0.0.0' },
    elicitation ? { capabilities: { elicitation: {} } } : undefined);
  const s = { client, tap, stderr, asked: [], answer: () => ({ action: 'accept', content: { decision: 'apply' } }) };
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
      const entry = { params: req.params, extra, aborted: extra.signal.aborted };
      extra.signal.addEventListener('abort', () => { entry.aborted = true; });
      s.asked.push(entry);
      return s.answer(req.params, extra, s.asked.length);
    });
  }
  await client.connect(tr);
  s.call = (name, a, opts = {}) => client.callTool({ name, arguments: a }, undefined, { ...CALL, ...opts });
  /** Closes the client, validates the transcript, returns the one connection. */
  s.finish = async () => {
    await client.close().catch(() => {});
    const { connections, problems } = validateTapDir(tap);
    assertNoProblems(problems, label);
    assert.equal(connections.length, 1, `${label}: expected one server process, got ${connections.length}`);
    return connections[0];
  };
  return s;
}

const s2c = (conn, pred) => conn.messages.filter((m) => m.dir === 's2c' && m.msg && pred(m.msg)).map((m) => m.msg);
const c2s = (conn, pred) => conn.messages.filter((m) => m.dir === 'c2s' && m.msg && pred(m.msg)).map((m) => m.msg);
const isElicit = (m) => m.method === 'elicitation/create' && 'id' in m;

/** Runs `body(session)` on a raw server; validates every line it wrote. */
const withRaw = (label, args, body) => withRawSession(label, args, body);

const callLine = (id, name, args, meta) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } });

async function nextElicit(s, callId) {
  const m = await s.next((x) => isElicit(x) || (x && x.id === callId && !('method' in x)),
    { what: `an elicitation/create while tools/call ${show(callId)} waits` });
  assert.ok(isElicit(m), `expected an elicitation/create request while tools/call ${show(callId)} is in flight, but the call was answered first: ${show(m).slice(0, 500)}`);
  return m;
}

const replyTo = (s, id) => s.messages.find((m) => m.msg && !('method' in m.msg) && show(m.msg.id) === show(id));

// ---------------------------------------------------------------------------------------------

describe('SDK 1.32.2 with elicitation: the answers', { concurrency: true }, () => {
  test('apply: the form shows tool, path, +a -r and the diff; written exactly; approval "user"; feedback passed on', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('apply', { dir: f.dir });
    s.answer = () => ({ action: 'accept', content: { decision: 'apply', feedback: 'looks right' } });
    let r;
    let conn;
    try {
      r = await s.call('edit', EDIT_ARGS(f['target.txt']));
    } finally {
      conn = await s.finish();
    }
    assertWritten(r, 'edit approved with apply', 'user');
    assertFile(f['target.txt'], EDITED, 'after apply');
    assert.equal(r.structuredContent.feedback, 'looks right', `structuredContent.feedback on success: ${show(r.structuredContent)}`);
    assert.match(textOf(r), /Feedback from the user: looks right/, `the text must pass the feedback on: ${show(textOf(r))}`);

    assert.equal(s.asked.length, 1, `exactly one elicitation expected, got ${s.asked.length}`);
    const p = s.asked[0].params;
    assert.equal(p.mode, 'form', `2025-11-25 form: mode must be "form", got ${show(p.mode)}`);
    // A small change is shown whole in the four lines Claude Code renders of a message: the
    // summary line, then the changed lines, and no trailing newline (it would count as a line).
    assert.equal(p.message, 'edit +1 -1 at line 2: target.txt\n-two\n+TWO', `the form message of a one-line change: ${show(p.message)}`);
    const rs = p.requestedSchema;
    assert.equal(rs?.type, 'object', `requestedSchema.type: ${show(rs)}`);
    assert.deepEqual(rs.required, ['decision'], `only "decision" is required: ${show(rs.required)}`);
    const d = rs.properties?.decision;
    assert.equal(d?.type, 'string', `decision.type: ${show(d)}`);
    assert.ok(Array.isArray(d.oneOf), `2025-11-25: decision must be a titled oneOf single-select: ${show(d)}`);
    assert.deepEqual(d.oneOf.map((o) => o.const), ['apply', 'apply_session', 'reject'], `decision choices in order: ${show(d.oneOf)}`);
    for (const o of d.oneOf) assert.ok(typeof o.title === 'string' && o.title.length > 0, `every choice needs a title: ${show(o)}`);
    assert.equal(rs.properties?.feedback?.type, 'string', `optional feedback text field: ${show(rs.properties)}`);

    // the elicitation travelled while the tools/call was in flight
    const call = c2s(conn, (m) => m.method === 'tools/call' && m.params?.name === 'edit')[0];
    const idx = (pred) => conn.messages.findIndex((m) => m.msg && pred(m.msg));
    const iCall = idx((m) => m.method === 'tools/call' && m.id === call.id);
    const iAsk = idx((m) => isElicit(m));
    const iReply = idx((m) => !('method' in m) && m.id === call.id && 'result' in m);
    assert.ok(iCall < iAsk && iAsk < iReply, `order must be tools/call (${iCall}) < elicitation/create (${iAsk}) < tools/call result (${iReply})`);
  });

  test('a large change: the summary, where the full diff is, the first changed line, then a bounded excerpt', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of big`);
    const f = newDir({ 'big.txt': lines.join('\n') + '\n' });
    const s = await sdkSession('large form', { dir: f.dir });
    let diffFile;
    s.answer = (params) => {
      // The file the form names holds the whole diff while the form is open (0600, private).
      diffFile = /^Full diff \(\d+ lines\): (.+)$/m.exec(params.message)?.[1];
      const st = diffFile && fs.statSync(diffFile);
      s.diffSeen = diffFile && { text: fs.readFileSync(diffFile, 'utf8'), mode: st.mode & 0o777 };
      return { action: 'accept', content: { decision: 'apply' } };
    };
    try {
      const r = await s.call('edit', { file_path: f['big.txt'], old_string: ' of big', new_string: ' OF BIG', replace_all: true });
      assertWritten(r, 'large edit approved', 'user');
      const m = s.asked[0].params.message.split('\n');
      assert.equal(m[0], 'edit +40 -40 at line 1: big.txt', `first line: the summary: ${show(m)}`);
      assert.match(m[1], /^Full diff \(83 lines\): \/.+\/1\.diff$/, `second line: where the full diff is: ${show(m)}`);
      assert.equal(m[2], '-line 1 of big  \u2192  +line 1 OF BIG', `third line: the first change and what it becomes: ${show(m)}`);
      assert.ok(m.length <= 17, `the message must fit one screen of a 30-row terminal (Codex cuts silently): ${m.length} lines`);
      assert.ok(m.includes('+line 1 OF BIG') && m.includes('\u2026 36 more removed lines'), `the excerpt shows both sides, cut: ${show(m)}`);
      assert.ok(s.diffSeen, `the named diff file must exist while the form is open: ${show(diffFile)}`);
      assert.equal(s.diffSeen.mode, 0o600, `the diff file must be private: ${s.diffSeen.mode.toString(8)}`);
      assert.equal(s.diffSeen.text, r.structuredContent.diff, 'the diff file holds exactly the change\'s diff');
    } finally {
      await s.finish();
    }
    assert.ok(!fs.existsSync(diffFile), `the diff file is removed when the server exits: ${diffFile}`);
  });

  test('Codex: no feedback field (it cannot submit a form whose last field, a text, is empty)', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('codex form', { dir: f.dir, clientName: 'codex-mcp-client' });
    try {
      assertWritten(await s.call('edit', EDIT_ARGS(f['target.txt'])), 'edit approved by a Codex-named client', 'user');
      assert.deepEqual(Object.keys(s.asked[0].params.requestedSchema.properties), ['decision'],
        `Codex's form has only the decision: ${show(s.asked[0].params.requestedSchema)}`);
    } finally {
      await s.finish();
    }
  });

  test('apply_session: written; later calls in the session (other tools too) are written without asking, approval "session"', async () => {
    const f = newDir({ 'a.txt': ORIGINAL, 'b.txt': 'alpha\nbeta\n' });
    const s = await sdkSession('apply_session', { dir: f.dir });
    s.answer = () => ({ action: 'accept', content: { decision: 'apply_session' } });
    const newFile = path.join(f.dir, 'created.txt');
    try {
      const r1 = await s.call('edit', EDIT_ARGS(f['a.txt']));
      assertWritten(r1, 'edit approved with apply_session', 'session');
      assertFile(f['a.txt'], EDITED, 'after apply_session');
      const r2 = await s.call('edit', { file_path: f['a.txt'], old_string: 'three', new_string: 'THREE' });
      assertWritten(r2, 'second edit after apply_session', 'session');
      assertFile(f['a.txt'], 'one\nTWO\nTHREE\n', 'second edit after apply_session');
      const r3 = await s.call('insert', { file_path: f['b.txt'], line: -1, text: 'gamma' });
      assertWritten(r3, 'insert on another file after apply_session', 'session');
      assertFile(f['b.txt'], 'alpha\nbeta\ngamma\n', 'insert after apply_session');
      const r4 = await s.call('multiedit', { file_path: f['b.txt'], edits: [{ old_string: 'alpha', new_string: 'ALPHA' }, { old_string: 'beta', new_string: 'BETA' }] });
      assertWritten(r4, 'multiedit after apply_session', 'session');
      assertFile(f['b.txt'], 'ALPHA\nBETA\ngamma\n', 'multiedit after apply_session');
      const r5 = await s.call('write', { file_path: newFile, content: 'brand new\n' });
      assertWritten(r5, 'write (create) after apply_session', 'session');
      assertFile(newFile, 'brand new\n', 'write after apply_session');
      assert.equal(s.asked.length, 1, `only the first call may ask after apply_session; ${s.asked.length} elicitations were sent`);
    } finally {
      await s.finish();
    }
  });

  const refusals = [
    ['accept + decision reject, with feedback', { action: 'accept', content: { decision: 'reject', feedback: 'rename it to Two instead' } }, [/reject/i, /Feedback from the user: rename it to Two instead/]],
    ['accept + decision reject, no feedback', { action: 'accept', content: { decision: 'reject' } }, [/reject/i]],
    ['decline', { action: 'decline' }, [/declin/i]],
    ['cancel', { action: 'cancel' }, [/cancel/i]],
    ['accept with content {} (no decision)', { action: 'accept', content: {} }, [/decision/i]],
    ['accept without content', { action: 'accept' }, [/decision/i]],
    ['accept with an unknown decision', { action: 'accept', content: { decision: 'yes' } }, [/decision/i]],
    ['accept with feedback only', { action: 'accept', content: { feedback: 'why not' } }, [/decision/i, /Feedback from the user: why not/]],
    ['decline with feedback', { action: 'decline', content: { feedback: 'not now' } }, [/declin/i]],
  ];
  for (const [label, answer, patterns] of refusals) {
    test(`${label}: isError, nothing written, the text says which`, async () => {
      const f = newDir({ 'target.txt': ORIGINAL });
      const s = await sdkSession(label, { dir: f.dir });
      s.answer = () => answer;
      let r;
      try {
        r = await s.call('edit', EDIT_ARGS(f['target.txt']));
        assertRefused(r, `edit answered ${show(answer)}`, ...patterns);
        assertFile(f['target.txt'], ORIGINAL, `after ${label}`);
        // nothing sticks: the next call asks again
        s.answer = () => ({ action: 'accept', content: { decision: 'apply' } });
        const r2 = await s.call('edit', EDIT_ARGS(f['target.txt']));
        assertWritten(r2, `edit after a refused one (${label})`, 'user');
        assert.equal(s.asked.length, 2, `the call after a refusal must ask again; elicitations: ${s.asked.length}`);
        assertFile(f['target.txt'], EDITED, `apply after ${label}`);
      } finally {
        await s.finish();
      }
    });
  }

  test('no answer within --approval-timeout 1: isError, nothing written, the server cancels its elicitation', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('timeout', { dir: f.dir, args: ['--approval-timeout', '1'] });
    // never answers; once the server cancels the request the SDK drops this (late) answer
    s.answer = (params, extra) => new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ action: 'accept', content: { decision: 'apply' } }), 8000);
      timer.unref();
      extra.signal.addEventListener('abort', () => { clearTimeout(timer); resolve({ action: 'accept', content: { decision: 'apply' } }); });
    });
    const t0 = Date.now();
    let r;
    let conn;
    try {
      r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      const ms = Date.now() - t0;
      assertRefused(r, 'unanswered approval', /no answer|timed? ?out|time/i);
      assert.ok(ms >= 900 && ms < 5000, `the refusal must come about 1 s after asking (--approval-timeout 1), came after ${ms} ms`);
      await sleep(300);  // deliberate: a window in which a write after the timeout would land
      assertFile(f['target.txt'], ORIGINAL, 'after the approval timed out');
    } finally {
      conn = await s.finish();
    }
    assert.equal(s.asked.length, 1, `one elicitation expected, got ${s.asked.length}`);
    const ask = s2c(conn, isElicit)[0];
    const cancels = s2c(conn, (m) => m.method === 'notifications/cancelled');
    assert.deepEqual(cancels.map((m) => m.params?.requestId), [ask.id],
      `the server must send notifications/cancelled for its elicitation id ${show(ask.id)}; sent ${show(cancels)}`);
    assert.equal(s.asked[0].aborted, true, 'the server sent notifications/cancelled, but the SDK handler\'s signal was not aborted by the time the session closed');
    assertFile(f['target.txt'], ORIGINAL, 'after the session ended');
  });

  test('the tools/call cancelled by the client (AbortSignal) while it waits: no reply, nothing written, elicitation cancelled', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('cancelled call', { dir: f.dir });
    const ac = new AbortController();
    let handlerAborted;
    let conn;
    s.answer = (params, extra) => new Promise((resolve) => {
      handlerAborted = new Promise((res) => extra.signal.addEventListener('abort', () => res(true)));
      const timer = setTimeout(() => resolve({ action: 'accept', content: { decision: 'apply' } }), 4000);
      timer.unref();
      extra.signal.addEventListener('abort', () => { clearTimeout(timer); resolve({ action: 'accept', content: { decision: 'apply' } }); });
      setTimeout(() => ac.abort('the user pressed stop'), 50);
    });
    try {
      await assert.rejects(s.call('edit', EDIT_ARGS(f['target.txt']), { signal: ac.signal }), 'the aborted call must reject on the client side');
      const aborted = await Promise.race([handlerAborted, sleep(3000).then(() => false)]);
      assert.equal(aborted, true, 'within 3 s of the client cancelling the tools/call, the server must cancel its elicitation (notifications/cancelled)');
      assert.deepEqual(await s.client.ping(CALL), {}, 'ping after the cancel');
      await sleep(300);  // deliberate: a window in which a write after the cancel would land
      assertFile(f['target.txt'], ORIGINAL, 'after the call was cancelled');
    } finally {
      conn = await s.finish();
    }
    const call = c2s(conn, (m) => m.method === 'tools/call')[0];
    const ask = s2c(conn, isElicit)[0];
    assert.ok(c2s(conn, (m) => m.method === 'notifications/cancelled' && m.params?.requestId === call.id).length === 1, 'the SDK sent notifications/cancelled for the call');
    const reply = s2c(conn, (m) => !('method' in m) && m.id === call.id);
    assert.deepEqual(reply, [], `a cancelled tools/call gets no response, got ${show(reply).slice(0, 400)}`);
    const cancels = s2c(conn, (m) => m.method === 'notifications/cancelled');
    assert.deepEqual(cancels.map((m) => m.params?.requestId), [ask.id], `notifications/cancelled for the elicitation ${show(ask.id)} expected, sent ${show(cancels)}`);
    assertFile(f['target.txt'], ORIGINAL, 'after the session ended');
  });

  test('the file changes on disk while the human looks: a change to other lines is merged and asked again', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('changed while asking, merged', { dir: f.dir });
    const external = 'one\ntwo\nthree\nEXTERNAL LINE\n';
    let asks = 0;
    s.answer = () => {
      if (++asks === 1) fs.writeFileSync(f['target.txt'], external);
      return { action: 'accept', content: { decision: 'apply' } };
    };
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assert.notEqual(r.isError, true, `a change to other lines is merged: ${show(r).slice(0, 600)}`);
      assert.equal(asks, 2, 'the merged change is shown again for approval');
      assert.match(s.asked[1].params.message, /^edit \(merged with a change on disk\) \+1 -1 at line 2: target\.txt/, 'the second form says why');
      assert.match(textOf(r), /Merged: target\.txt changed on disk while this change was being prepared/);
      assert.match(r.structuredContent.diff, /^ EXTERNAL LINE$/m, 'the diff is against the file as it is now');
      assertFile(f['target.txt'], 'one\nTWO\nthree\nEXTERNAL LINE\n', 'both changes kept');
    } finally {
      await s.finish();
    }
  });

  test('the merged change is rejected: the refusal names the edit of the file, then the merge', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('changed while asking, merged, rejected', { dir: f.dir });
    const external = 'one\ntwo\nthree\nEXTERNAL LINE\n';
    let asks = 0;
    s.answer = () => {
      if (++asks === 1) {
        fs.writeFileSync(f['target.txt'], external);
        return { action: 'accept', content: { decision: 'apply' } };
      }
      return { action: 'accept', content: { decision: 'reject' } };
    };
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assert.equal(r.isError, true, `the second form was rejected: ${show(r).slice(0, 600)}`);
      assert.equal(asks, 2);
      assert.match(textOf(r), /approval form for this edit of target\.txt \(merged with a change on disk\)\. Nothing was written\./);
      assert.doesNotMatch(textOf(r), /this edit \(merged/);
      assertFile(f['target.txt'], external, 'the rejected change was not written');
    } finally {
      await s.finish();
    }
  });

  test('the file changes on disk while the human looks, on the same line: nothing written, both sides and the fresh diff', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('changed while asking, conflict', { dir: f.dir });
    const external = 'one\ndeux\nthree\n';
    s.answer = () => {
      fs.writeFileSync(f['target.txt'], external);
      return { action: 'accept', content: { decision: 'apply' } };
    };
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assert.equal(r.isError, true, `overlapping changes must fail: ${show(r).slice(0, 600)}`);
      assert.equal(r._meta?.['io.github.mcp-edit/reason'], 'conflict');
      const t = textOf(r);
      assert.match(t, /changed on disk/i, `the error must say the file changed on disk: ${show(t)}`);
      assert.match(t, /<<<<<<< this change\nTWO\n=======\ndeux\n>>>>>>> the file now/, `both sides: ${show(t)}`);
      assert.match(t, /^\+deux$/m, `the error must carry the fresh diff (what changed there): ${show(t)}`);
      assertFile(f['target.txt'], external, 'after the conflicting approval');
    } finally {
      await s.finish();
    }
  });

  test('every mutating tool asks (multiedit, write, insert, undo); a dry run asks nothing', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('every tool asks', { dir: f.dir });
    const created = path.join(f.dir, 'sub', 'new.txt');
    try {
      const dry = await s.call('edit', { ...EDIT_ARGS(f['target.txt']), dry_run: true });
      assert.notEqual(dry.isError, true, `dry run: ${show(dry).slice(0, 400)}`);
      assert.equal(dry.structuredContent?.approval, 'none', `a dry run reports approval "none": ${show(dry.structuredContent)}`);
      assert.equal(s.asked.length, 0, 'a dry run must not ask');
      assertFile(f['target.txt'], ORIGINAL, 'after the dry run');

      const steps = [
        ['multiedit', { file_path: f['target.txt'], edits: [{ old_string: 'one', new_string: 'ONE' }, { old_string: 'three', new_string: 'THREE' }] }, f['target.txt'], 'ONE\ntwo\nTHREE\n'],
        ['insert', { file_path: f['target.txt'], line: 1, text: 'inserted' }, f['target.txt'], 'ONE\ninserted\ntwo\nTHREE\n'],
        ['write', { file_path: created, content: 'made by write\n' }, created, 'made by write\n'],
        ['undo', { file_path: f['target.txt'] }, f['target.txt'], 'ONE\ntwo\nTHREE\n'],
      ];
      for (const [tool, args, file, expected] of steps) {
        const n = s.asked.length;
        const r = await s.call(tool, args);
        assertWritten(r, tool, 'user');
        assert.equal(s.asked.length, n + 1, `${tool} must send one elicitation/create; sent ${s.asked.length - n}`);
        assert.ok(s.asked[n].params.message.includes(tool), `the form for ${tool} must name the tool: ${show(s.asked[n].params.message)}`);
        assertFile(file, expected, `after ${tool} approved`);
      }
    } finally {
      await s.finish();
    }
  });
});

describe('policies with SDK 1.32.2', { concurrency: true }, () => {
  test('--approval require + a client with elicitation: asks; apply writes', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('require+elicitation', { dir: f.dir, args: ['--approval', 'require'] });
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assertWritten(r, 'require + apply', 'user');
      assert.equal(s.asked.length, 1, `require must ask a client that can be asked; elicitations: ${s.asked.length}`);
      assertFile(f['target.txt'], EDITED, 'require + apply');
    } finally {
      await s.finish();
    }
  });

  test('--approval auto + a client with elicitation: never asks, approval "policy"', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('auto+elicitation', { dir: f.dir, args: ['--approval', 'auto'] });
    s.answer = () => ({ action: 'decline' });
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assertWritten(r, 'auto', 'policy');
      assert.equal(s.asked.length, 0, 'auto must never ask');
      assertFile(f['target.txt'], EDITED, 'auto');
    } finally {
      await s.finish();
    }
  });

  test('--approval ask + a client without elicitation: written, approval "policy", the summary says it was not asked', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('ask, no elicitation', { dir: f.dir, elicitation: false });
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assertWritten(r, 'ask without elicitation', 'policy');
      assert.match(textOf(r), /without asking/i, `the summary must say it was written without asking: ${show(textOf(r))}`);
      assertFile(f['target.txt'], EDITED, 'ask without elicitation');
    } finally {
      const conn = await s.finish();
      assert.deepEqual(s2c(conn, isElicit), [], 'no elicitation/create to a client that did not declare it');
    }
  });

  test('--approval require + a client without elicitation: refused, nothing written', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await sdkSession('require, no elicitation', { dir: f.dir, elicitation: false, args: ['--approval', 'require'] });
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assertRefused(r, 'require without elicitation', /require/i);
      assertFile(f['target.txt'], ORIGINAL, 'require without elicitation');
      const w = await s.call('write', { file_path: path.join(f.dir, 'new.txt'), content: 'x\n' });
      assertRefused(w, 'write under require without elicitation', /require/i);
      assertFile(path.join(f.dir, 'new.txt'), null, 'write under require without elicitation');
      const dry = await s.call('edit', { ...EDIT_ARGS(f['target.txt']), dry_run: true });
      assert.notEqual(dry.isError, true, `a dry run needs no approval, even under require: ${show(dry).slice(0, 400)}`);
      assertFile(f['target.txt'], ORIGINAL, 'dry run under require');
    } finally {
      await s.finish();
    }
  });
});

describe('raw lines: timing around a pending approval', { concurrency: true }, () => {
  test('cancelled tools/call: the server cancels its elicitation, a late apply is ignored, the file lane is freed', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('raw cancel + late answer', ['--root', f.dir, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', { elicitation: {} });
      s.send(callLine(5, 'edit', EDIT_ARGS(f['target.txt'])));
      const ask = await nextElicit(s, 5);
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user pressed stop' } });
      const cancel = await s.next((m) => m.method === 'notifications/cancelled',
        { what: `notifications/cancelled for the elicitation ${show(ask.id)}`, timeout: 3000 });
      assert.equal(show(cancel.params?.requestId), show(ask.id), `the server must cancel its elicitation ${show(ask.id)}: ${show(cancel)}`);
      // the human clicks Apply too late
      s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { decision: 'apply' } } });
      assert.deepEqual((await s.request(6, 'ping')).result, {}, 'ping after the late answer');
      await sleep(300);  // deliberate: a window in which a reply or a write caused by the late answer would come
      assert.equal(replyTo(s, 5), undefined, `a cancelled tools/call gets no response, got ${show(replyTo(s, 5)?.msg)}`);
      assertFile(f['target.txt'], ORIGINAL, 'after cancel + late apply');
      // the lane is free: the next edit of the same file asks afresh and is written when applied
      s.send(callLine(7, 'edit', EDIT_ARGS(f['target.txt'])));
      const ask2 = await nextElicit(s, 7);
      assert.notEqual(show(ask2.id), show(ask.id), 'a new elicitation id');
      s.send({ jsonrpc: '2.0', id: ask2.id, result: { action: 'accept', content: { decision: 'apply' } } });
      const r = await s.response(7);
      assertWritten(r.result, 'edit after the cancelled one', 'user');
      assertFile(f['target.txt'], EDITED, 'edit after the cancelled one');
      assert.equal(replyTo(s, 5), undefined, 'still no response to the cancelled call');
    });
  });

  test('while an approval waits: ping, a read and an edit of another file go on; an edit of the same file waits its turn', async () => {
    const f = newDir({ 'one.txt': ORIGINAL, 'two.txt': 'alpha\nbeta\n' });
    await withRaw('raw concurrency while waiting', ['--root', f.dir, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', { elicitation: {} });
      s.send(callLine(10, 'edit', EDIT_ARGS(f['one.txt'])));
      const askA = await nextElicit(s, 10);
      assert.match(askA.params.message, /one\.txt/, `form for one.txt: ${show(askA.params.message)}`);
      assert.deepEqual((await s.request(11, 'ping')).result, {}, 'ping while an approval waits');
      const read = await s.request(12, 'tools/call', { name: 'read', arguments: { file_path: f['two.txt'] } });
      assert.notEqual(read.result?.isError, true, `read of another file while an approval waits: ${show(read).slice(0, 300)}`);
      // an edit of another file gets its own form and finishes while the first still waits
      s.send(callLine(13, 'edit', { file_path: f['two.txt'], old_string: 'beta', new_string: 'BETA' }));
      const askB = await nextElicit(s, 13);
      assert.match(askB.params.message, /two\.txt/, `form for two.txt: ${show(askB.params.message)}`);
      s.send({ jsonrpc: '2.0', id: askB.id, result: { action: 'accept', content: { decision: 'apply' } } });
      assertWritten((await s.response(13)).result, 'edit of two.txt while one.txt waits', 'user');
      assertFile(f['two.txt'], 'alpha\nBETA\n', 'two.txt while one.txt waits');
      // an edit of the same file waits: no form, no reply while the first is pending
      s.send(callLine(14, 'edit', { file_path: f['one.txt'], old_string: 'three', new_string: 'THREE' }));
      await sleep(400);  // deliberate: a window in which a second edit that did not wait would ask or answer
      const early = s.unconsumed().filter((m) => isElicit(m) || m?.id === 14);
      assert.deepEqual(early, [], `a second edit of one.txt must wait for the first's approval; the server sent ${show(early).slice(0, 400)}`);
      assertFile(f['one.txt'], ORIGINAL, 'one.txt while its approval waits');
      s.send({ jsonrpc: '2.0', id: askA.id, result: { action: 'accept', content: { decision: 'apply' } } });
      assertWritten((await s.response(10)).result, 'first edit of one.txt', 'user');
      assertFile(f['one.txt'], EDITED, 'one.txt after the first approval');
      const askC = await nextElicit(s, 14);
      assert.match(askC.params.message, /\+THREE/, `the second form shows the second change on top of the first: ${show(askC.params.message)}`);
      s.send({ jsonrpc: '2.0', id: askC.id, result: { action: 'accept', content: { decision: 'apply' } } });
      assertWritten((await s.response(14)).result, 'second edit of one.txt', 'user');
      assertFile(f['one.txt'], 'one\nTWO\nTHREE\n', 'one.txt after both approvals');
      const progress = s.messages.filter((m) => m.msg?.method === 'notifications/progress');
      assert.deepEqual(progress, [], 'no progress notifications without a progressToken');
    });
  });

  test('a progressToken gets notifications/progress while the approval waits (~every 5 s)', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('raw progress', ['--root', f.dir, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', { elicitation: {} });
      s.send(callLine(20, 'edit', EDIT_ARGS(f['target.txt']), { progressToken: 'approval-tok' }));
      const ask = await nextElicit(s, 20);
      const p1 = await s.next((m) => m.method === 'notifications/progress', { what: 'notifications/progress while the approval waits', timeout: 8000 });
      assert.equal(p1.params?.progressToken, 'approval-tok', `progressToken must be echoed exactly: ${show(p1)}`);
      assert.ok(typeof p1.params.progress === 'number' && p1.params.progress > 0, `progress: ${show(p1)}`);
      assertFile(f['target.txt'], ORIGINAL, 'while waiting (progress sent)');
      s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { decision: 'apply' } } });
      assertWritten((await s.response(20)).result, 'edit with a progressToken', 'user');
      assertFile(f['target.txt'], EDITED, 'after apply (progress case)');
      const all = s.messages.filter((m) => m.msg?.method === 'notifications/progress').map((m) => m.msg.params.progress);
      for (let i = 1; i < all.length; i++) assert.ok(all[i] > all[i - 1], `progress must strictly increase: ${show(all)}`);
    });
  });

  test('2025-06-18 client: enum + enumNames and no mode; decline, then apply_session covers the next call', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('raw 2025-06-18', ['--root', f.dir, '--no-fsync'], async (s) => {
      await s.initialize('2025-06-18', { elicitation: {} });
      s.send(callLine(1, 'edit', EDIT_ARGS(f['target.txt'])));
      const ask = await nextElicit(s, 1);
      assert.ok(!('mode' in ask.params), `no mode for 2025-06-18: ${show(ask.params).slice(0, 300)}`);
      const d = ask.params.requestedSchema?.properties?.decision;
      assert.deepEqual(d?.enum, ['apply', 'apply_session', 'reject'], `2025-06-18 decision enum: ${show(d)}`);
      assert.ok(Array.isArray(d.enumNames) && d.enumNames.length === 3, `2025-06-18 needs enumNames beside enum: ${show(d)}`);
      assert.ok(!('oneOf' in d), `no oneOf for 2025-06-18: ${show(d)}`);
      s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } });
      const r1 = await s.response(1);
      assertRefused(r1.result, '2025-06-18 decline', /declin/i);
      assertFile(f['target.txt'], ORIGINAL, '2025-06-18 decline');
      s.send(callLine(2, 'edit', EDIT_ARGS(f['target.txt'])));
      const ask2 = await nextElicit(s, 2);
      s.send({ jsonrpc: '2.0', id: ask2.id, result: { action: 'accept', content: { decision: 'apply_session' } } });
      assertWritten((await s.response(2)).result, '2025-06-18 apply_session', 'session');
      assertFile(f['target.txt'], EDITED, '2025-06-18 apply_session');
      const r3 = await s.request(3, 'tools/call', { name: 'edit', arguments: { file_path: f['target.txt'], old_string: 'one', new_string: 'ONE' } });
      assertWritten(r3.result, '2025-06-18 call after apply_session', 'session');
      assertFile(f['target.txt'], 'ONE\nTWO\nthree\n', '2025-06-18 after apply_session');
      assert.equal(s.messages.filter((m) => isElicit(m.msg ?? {})).length, 2, 'no third elicitation after apply_session');
    });
  });

  test('an error reply to elicitation/create: isError, nothing written', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('raw elicitation error', ['--root', f.dir, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', { elicitation: {} });
      s.send(callLine(1, 'edit', EDIT_ARGS(f['target.txt'])));
      const ask = await nextElicit(s, 1);
      s.send({ jsonrpc: '2.0', id: ask.id, error: { code: -32603, message: 'the host could not render the form' } });
      const r = await s.response(1);
      assertRefused(r.result, 'elicitation answered with a JSON-RPC error');
      assertFile(f['target.txt'], ORIGINAL, 'after an error reply to the elicitation');
    });
  });
});
