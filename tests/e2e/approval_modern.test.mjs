// The approval gate in the modern era (2026-07-28): Multi Round-Trip
// Requests. The first `tools/call` answers `resultType: "input_required"` with an
// `elicitation/create` input request and a signed `requestState`; the retry carries
// `inputResponses` and the echoed state. Driven by @modelcontextprotocol/client 2.4.0 (which
// fulfils input_required through its elicitation handler) for every answer, and by raw lines for
// what a well-behaved client never sends (tampered, expired, replayed, rebound states).
// After every case the file on disk is compared byte for byte; every server line is validated.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  PV_KEY, RawSession, assertNoProblems, drain, makeTempDir, modernMeta, requireBinary,
  tappedServer, validateTapDir, assertFile, textOf, show, sleep, ORIGINAL, EDITED, EDIT_ARGS, withRawSession, newDir, assertRefusedChange, assertWrittenChange,
} from './helpers.mjs';

requireBinary();
const CALL = { timeout: 10000 };
const ELICIT_CAPS = { elicitation: { form: {} } };
const APPLY = { action: 'accept', content: { decision: 'apply' } };

// ---------------------------------------------------------------------------------------------
// small helpers



function assertRefused(r, what, ...patterns) {
  assert.notEqual(r?.resultType, 'input_required', `${what}: expected a refusal, got input_required: ${show(r).slice(0, 400)}`);
  assertRefusedChange(r, what, ...patterns);
}

function assertWritten(r, what, approval) {
  assert.notEqual(r?.resultType, 'input_required', `${what}: expected a complete result, got input_required: ${show(r).slice(0, 400)}`);
  assertWrittenChange(r, what, approval);
}


/** An input_required result: returns {key, form, state}; asserts its shape. */
function assertInputRequired(r, what) {
  assert.equal(r?.resultType, 'input_required', `${what}: expected resultType "input_required", got ${show(r).slice(0, 600)}`);
  assert.equal(typeof r.requestState, 'string', `${what}: input_required must carry a string requestState: ${show(r).slice(0, 300)}`);
  const entries = Object.entries(r.inputRequests ?? {});
  assert.equal(entries.length, 1, `${what}: one input request expected: ${show(r.inputRequests).slice(0, 400)}`);
  const [key, ir] = entries[0];
  assert.equal(ir?.method, 'elicitation/create', `${what}: the input request must be elicitation/create: ${show(ir).slice(0, 300)}`);
  const form = ir.params;
  assert.equal(form?.mode, 'form', `${what}: 2026-07-28 form: mode "form" expected, got ${show(form?.mode)}`);
  const d = form?.requestedSchema?.properties?.decision;
  assert.deepEqual(d?.oneOf?.map((o) => o.const), ['apply', 'apply_session', 'reject'], `${what}: titled decision choices: ${show(d)}`);
  assert.deepEqual(form.requestedSchema.required, ['decision'], `${what}: only decision is required: ${show(form.requestedSchema)}`);
  return { key, form, state: r.requestState };
}

/**
 * A client 2.4.0 (modern era) against a tapped server. `s.answer(params, n)` answers each
 * elicitation; `s.asked` records the params.
 */
async function modernSession(label, { dir, args = [], elicitation = true } = {}) {
  const tap = makeTempDir('mcp-edit-e2e-tap-');
  const tr = new StdioClientTransport(tappedServer(dir, tap, args));
  const stderr = drain(tr.stderr);
  const client = new Client({ name: `mcp-edit-e2e-${label.replace(/\W+/g, '-')}`, version: '0.0.0' }, {
    versionNegotiation: { mode: 'auto' },
    ...(elicitation ? { capabilities: ELICIT_CAPS } : {}),
  });
  const s = { client, tap, stderr, asked: [], answer: () => APPLY };
  if (elicitation) {
    client.setRequestHandler('elicitation/create', async (req) => {
      s.asked.push(req.params);
      return s.answer(req.params, s.asked.length);
    });
  }
  await client.connect(tr, { timeout: 10000 });
  assert.equal(client.getProtocolEra(), 'modern', `${label}: client 2.4.0 must negotiate the modern era, got ${client.getProtocolEra()}`);
  s.call = (name, a) => client.callTool({ name, arguments: a }, CALL);
  /** Closes, validates every transcript; returns the session connection's tools/call exchanges. */
  s.finish = async () => {
    await client.close().catch(() => {});
    const { connections, problems } = validateTapDir(tap);
    assertNoProblems(problems, label);
    const session = connections.filter((c) => !c.messages.some((m) => m.dir === 'c2s' && m.msg?.method === 'server/discover'));
    assert.equal(session.length, 1, `${label}: expected one session process besides the discover probe, got ${session.length}`);
    const conn = session[0];
    const byId = new Map();
    const calls = [];
    for (const { dir: d, msg } of conn.messages) {
      if (!msg) continue;
      if (d === 's2c' && 'method' in msg && 'id' in msg) assert.fail(`${label}: the server sent a JSON-RPC request in the modern era: ${show(msg).slice(0, 300)}`);
      if (d === 'c2s' && msg.method === 'tools/call') byId.set(show(msg.id), msg);
      if (d === 's2c' && 'result' in msg && byId.has(show(msg.id))) calls.push({ request: byId.get(show(msg.id)), result: msg.result });
    }
    for (const c of calls) assert.equal(c.request.params?._meta?.[PV_KEY], '2026-07-28', `${label}: every tools/call carries the modern _meta`);
    return calls;
  };
  return s;
}

/** Checks a two-leg MRTR exchange on the wire; returns the two legs. */
function assertTwoLegs(calls, what, answer) {
  assert.equal(calls.length, 2, `${what}: expected 2 tools/call legs (input_required, then the retry), got ${calls.length}: ${show(calls.map((c) => c.result.resultType))}`);
  const [first, retry] = calls;
  const { key, state } = assertInputRequired(first.result, `${what}, first leg`);
  assert.ok(!('requestState' in first.request.params) && !('inputResponses' in first.request.params), `${what}: the first leg carries no state`);
  assert.notEqual(show(retry.request.id), show(first.request.id), `${what}: the retry uses a new id`);
  assert.equal(retry.request.params.requestState, state, `${what}: the retry echoes requestState byte for byte`);
  assert.deepEqual(retry.request.params.inputResponses?.[key], answer, `${what}: the retry carries inputResponses.${key} = the handler's answer`);
  assert.equal(retry.result.resultType, 'complete', `${what}: the retry's result must be complete: ${show(retry.result).slice(0, 400)}`);
  return { first, retry };
}

// ---------------------------------------------------------------------------------------------

describe('client 2.4.0 through MRTR: the answers', { concurrency: true }, () => {
  test('apply: input_required with the form, then written exactly; approval "user"; feedback passed on', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await modernSession('mrtr apply', { dir: f.dir });
    const answer = { action: 'accept', content: { decision: 'apply', feedback: 'fine by me' } };
    s.answer = () => answer;
    let r;
    let calls;
    try {
      r = await s.call('edit', EDIT_ARGS(f['target.txt']));
    } finally {
      calls = await s.finish();
    }
    assertWritten(r, 'edit applied through MRTR', 'user');
    assertFile(f['target.txt'], EDITED, 'after apply through MRTR');
    assert.equal(r.structuredContent.feedback, 'fine by me', `structuredContent.feedback: ${show(r.structuredContent)}`);
    assert.match(textOf(r), /Feedback from the user: fine by me/, `text: ${show(textOf(r))}`);
    assert.equal(s.asked.length, 1, `one elicitation expected, got ${s.asked.length}`);
    for (const piece of ['edit', 'target.txt', '+1 -1', '-two', '+TWO']) {
      assert.ok(s.asked[0].message.includes(piece), `the form message must contain ${show(piece)}: ${show(s.asked[0].message)}`);
    }
    assertTwoLegs(calls, 'apply', answer);
  });

  test('apply_session: written; later calls are complete at once with approval "session"', async () => {
    const f = newDir({ 'a.txt': ORIGINAL, 'b.txt': 'alpha\nbeta\n' });
    const s = await modernSession('mrtr apply_session', { dir: f.dir });
    s.answer = () => ({ action: 'accept', content: { decision: 'apply_session' } });
    let calls;
    try {
      const r1 = await s.call('edit', EDIT_ARGS(f['a.txt']));
      assertWritten(r1, 'apply_session', 'session');
      assertFile(f['a.txt'], EDITED, 'after apply_session');
      const r2 = await s.call('insert', { file_path: f['b.txt'], line: 0, text: 'zero' });
      assertWritten(r2, 'insert after apply_session', 'session');
      assertFile(f['b.txt'], 'zero\nalpha\nbeta\n', 'insert after apply_session');
      const r3 = await s.call('edit', { file_path: f['a.txt'], old_string: 'one', new_string: 'ONE' });
      assertWritten(r3, 'edit after apply_session', 'session');
      assertFile(f['a.txt'], 'ONE\nTWO\nthree\n', 'edit after apply_session');
      assert.equal(s.asked.length, 1, `only the first call may ask; asked ${s.asked.length} times`);
    } finally {
      calls = await s.finish();
    }
    assert.deepEqual(calls.map((c) => c.result.resultType), ['input_required', 'complete', 'complete', 'complete'],
      `wire: only the first call needs input: ${show(calls.map((c) => c.result.resultType))}`);
  });

  const refusals = [
    ['reject with feedback', { action: 'accept', content: { decision: 'reject', feedback: 'call it Two' } }, [/reject/i, /Feedback from the user: call it Two/]],
    ['decline', { action: 'decline' }, [/declin/i]],
    ['cancel', { action: 'cancel' }, [/cancel/i]],
    ['accept with content {}', { action: 'accept', content: {} }, [/decision/i]],
    ['accept with an unknown decision', { action: 'accept', content: { decision: 'sure' } }, [/decision/i]],
  ];
  for (const [label, answer, patterns] of refusals) {
    test(`${label}: isError, nothing written, the text says which`, async () => {
      const f = newDir({ 'target.txt': ORIGINAL });
      const s = await modernSession(`mrtr ${label}`, { dir: f.dir });
      s.answer = () => answer;
      let calls;
      try {
        const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
        assertRefused(r, `MRTR answered ${show(answer)}`, ...patterns);
        assertFile(f['target.txt'], ORIGINAL, `after ${label}`);
        assert.equal(s.asked.length, 1, `one elicitation expected, got ${s.asked.length}`);
      } finally {
        calls = await s.finish();
      }
      assertTwoLegs(calls, label, answer);
      assert.equal(calls[1].result.isError, true, `${label}: the retry's result is the refusal`);
      assertFile(f['target.txt'], ORIGINAL, `after ${label}, session closed`);
    });
  }

  test('the file changes between the round trips: a fresh input_required with the new diff; applying it writes on top', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await modernSession('mrtr changed between legs', { dir: f.dir });
    const external = 'zero\none\ntwo\nthree\n';
    s.answer = (params, n) => {
      if (n === 1) fs.writeFileSync(f['target.txt'], external); // another program writes while the human looks
      return APPLY;
    };
    let calls;
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assertWritten(r, 'edit re-approved after the file changed', 'user');
      assertFile(f['target.txt'], 'zero\none\nTWO\nthree\n', 'after the re-approval');
      assert.equal(s.asked.length, 2, `the client must have been asked twice (the second time with the new diff), got ${s.asked.length}`);
      assert.equal(s.asked[1].message, '(Changed on disk since approval was asked; this is the new change.) edit +1 -1 at line 3: target.txt\n-two\n+TWO',
        `the second form must say so on its first line and show the change against the new 4-line content: ${show(s.asked[1].message)}`);
    } finally {
      calls = await s.finish();
    }
    assert.deepEqual(calls.map((c) => c.result.resultType), ['input_required', 'input_required', 'complete'],
      `wire: input_required, input_required (fresh), complete; got ${show(calls.map((c) => c.result.resultType))}`);
    assert.notEqual(calls[1].result.requestState, calls[0].result.requestState, 'the fresh input_required carries a new requestState');
  });

  test('write over a file changed between the round trips: merged with the other change, asked again, both kept', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await modernSession('mrtr write merged', { dir: f.dir });
    s.answer = (params, n) => {
      if (n === 1) fs.writeFileSync(f['target.txt'], 'one\ntwo\nthree\nfour\n'); // another program appends meanwhile
      return APPLY;
    };
    try {
      const read = await s.call('read', { file_path: f['target.txt'] });
      assert.notEqual(read.isError, true);
      const r = await s.call('write', { file_path: f['target.txt'], content: 'ONE\ntwo\nthree\n' });
      assertWritten(r, 'write merged after the file changed', 'user');
      assertFile(f['target.txt'], 'ONE\ntwo\nthree\nfour\n', 'both changes kept');
      assert.equal(s.asked.length, 2, `asked again for the merged change, got ${s.asked.length}`);
      assert.match(textOf(r), /Merged: target\.txt changed on disk since this session last read or wrote it/);
    } finally {
      await s.finish();
    }
  });

  test('the edit no longer applies after the file changed between the round trips: isError, the external content stays', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await modernSession('mrtr changed, no match', { dir: f.dir });
    const external = 'one\n2\nthree\n';
    s.answer = (params, n) => {
      if (n === 1) fs.writeFileSync(f['target.txt'], external);
      return APPLY;
    };
    try {
      const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
      assert.equal(r.isError, true, `old_string is gone from the file: the retry must fail, got ${show(r).slice(0, 500)}`);
      assertFile(f['target.txt'], external, 'after the failed retry');
    } finally {
      await s.finish();
    }
  });

  test('the call aborted by the client while the human looks: no retry reaches the server, nothing written', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await modernSession('mrtr aborted', { dir: f.dir });
    const ac = new AbortController();
    s.answer = async () => {
      ac.abort('the user pressed stop');
      await sleep(50);  // the scenario: the human is still looking at the form when the call is aborted
      return APPLY;
    };
    let calls;
    try {
      await assert.rejects(s.client.callTool({ name: 'edit', arguments: EDIT_ARGS(f['target.txt']) }, { ...CALL, signal: ac.signal }),
        'an aborted call must reject on the client side');
      await sleep(200);  // deliberate: a window in which a retry that reached the server would write
      assertFile(f['target.txt'], ORIGINAL, 'after the aborted MRTR call');
    } finally {
      calls = await s.finish();
    }
    assert.ok(calls.length > 0, 'the first leg of the call (answered input_required) must have reached the server');
    assert.ok(calls.every((c) => c.result.resultType === 'input_required' || c.result.isError === true),
      `no leg may complete successfully after the abort: ${show(calls.map((c) => c.result)).slice(0, 500)}`);
    assertFile(f['target.txt'], ORIGINAL, 'after the aborted MRTR call, session closed');
  });

  test('a dry run answers complete at once with approval "none" and writes nothing', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    const s = await modernSession('mrtr dry run', { dir: f.dir });
    try {
      const r = await s.call('edit', { ...EDIT_ARGS(f['target.txt']), dry_run: true });
      assert.notEqual(r.isError, true, `dry run: ${show(r).slice(0, 400)}`);
      assert.equal(r.structuredContent?.approval, 'none', `dry run approval: ${show(r.structuredContent)}`);
      assert.equal(s.asked.length, 0, 'a dry run asks nothing');
      assertFile(f['target.txt'], ORIGINAL, 'after a dry run');
    } finally {
      const calls = await s.finish();
      assert.deepEqual(calls.map((c) => c.result.resultType), ['complete'], 'dry run: one complete leg');
    }
  });
});

describe('client 2.4.0 policies', { concurrency: true }, () => {
  const cases = [
    ['ask, no elicitation declared', [], false, 'written'],
    ['require, no elicitation declared', ['--approval', 'require'], false, 'refused'],
    ['auto, no elicitation declared', ['--approval', 'auto'], false, 'written'],
    ['auto, elicitation declared', ['--approval', 'auto'], true, 'written'],
    ['require, elicitation declared (asks)', ['--approval', 'require'], true, 'asked'],
  ];
  for (const [label, args, elicitation, outcome] of cases) {
    test(`${label}: ${outcome}`, async () => {
      const f = newDir({ 'target.txt': ORIGINAL });
      const s = await modernSession(`policy ${label}`, { dir: f.dir, args, elicitation });
      let calls;
      try {
        const r = await s.call('edit', EDIT_ARGS(f['target.txt']));
        if (outcome === 'refused') {
          assertRefused(r, label, /require/i);
          assertFile(f['target.txt'], ORIGINAL, label);
        } else if (outcome === 'asked') {
          assertWritten(r, label, 'user');
          assert.equal(s.asked.length, 1, `${label}: one elicitation expected`);
          assertFile(f['target.txt'], EDITED, label);
        } else {
          assertWritten(r, label, 'policy');
          if (!args.includes('auto')) assert.match(textOf(r), /without asking/i, `${label}: the summary must say it was not asked: ${show(textOf(r))}`);
          assert.equal(s.asked.length, 0, `${label}: must not ask`);
          assertFile(f['target.txt'], EDITED, label);
        }
      } finally {
        calls = await s.finish();
      }
      if (outcome !== 'asked') {
        assert.deepEqual(calls.map((c) => c.result.resultType), ['complete'], `${label}: a single complete leg, no input_required: ${show(calls.map((c) => c.result.resultType))}`);
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Raw lines: what a well-behaved client never sends

async function withRaw(label, args, body) {
  const s = await withRawSession(label, args, body);
  const requests = s.validator.serverMessages.filter((m) => m && 'method' in m && 'id' in m);
  assert.deepEqual(requests, [], `${label}: no server-to-client requests in the modern era`);
}

let nextId = 100;
async function call(s, name, args, extra = {}, caps = ELICIT_CAPS) {
  const id = nextId++;
  const r = await s.request(id, 'tools/call', { name, arguments: args, ...extra, _meta: modernMeta(caps) });
  assert.ok(r.result, `tools/call ${name} must answer a result, got ${show(r).slice(0, 400)}`);
  return r.result;
}

function b64urlDecode(s) {
  return Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}
function b64urlEncode(s) {
  return Buffer.from(s, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

describe('raw lines: requestState is attacker-controlled', { concurrency: true }, () => {
  test('tampered requestState (flipped byte, forged payload, stripped signature, garbage): isError, nothing written; the genuine one still works', async (t) => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('tampered state', ['--root', f.dir, '--no-fsync'], async (s) => {
      const args = EDIT_ARGS(f['target.txt']);
      const { key, state } = assertInputRequired(await call(s, 'edit', args), 'first leg');
      const apply = { [key]: APPLY };
      const forged = [];
      const flip = (str, i) => str.slice(0, i) + (str[i] === 'A' ? 'B' : 'A') + str.slice(i + 1);
      forged.push(['a byte flipped in the middle', flip(state, Math.floor(state.length / 2))]);
      forged.push(['the last byte flipped', flip(state, state.length - 1)]);
      forged.push(['garbage', 'not-a-request-state']);
      forged.push(['empty string', '']);
      const dot = state.lastIndexOf('.');
      if (dot > 0) {
        const payloadText = b64urlDecode(state.slice(0, dot));
        const sig = state.slice(dot + 1);
        forged.push(['the signature stripped', state.slice(0, dot)]);
        forged.push(['the signature stripped, dot kept', state.slice(0, dot + 1)]);
        try {
          const payload = JSON.parse(payloadText);
          if (typeof payload.exp === 'number') forged.push(['payload exp pushed a day later, old signature', `${b64urlEncode(JSON.stringify({ ...payload, exp: payload.exp + 86400000 }))}.${sig}`]);
          if (typeof payload.tool === 'string') forged.push(['payload tool renamed, old signature', `${b64urlEncode(JSON.stringify({ ...payload, tool: 'write' }))}.${sig}`]);
          forged.push(['payload re-encoded with a key added, old signature', `${b64urlEncode(JSON.stringify({ ...payload, x: 1 }))}.${sig}`]);
        } catch {
          t.diagnostic('requestState payload is not base64url JSON; payload forgeries skipped');
        }
      } else {
        t.diagnostic('requestState has no "payload.signature" shape; payload forgeries skipped');
      }
      for (const [label, bad] of forged) {
        const r = await call(s, 'edit', args, { inputResponses: apply, requestState: bad });
        assertRefused(r, `requestState ${label}`, /requestState/);
        assertFile(f['target.txt'], ORIGINAL, `after requestState ${label}`);
      }
      const ok = await call(s, 'edit', args, { inputResponses: apply, requestState: state });
      assertWritten(ok, 'the genuine requestState after the forgeries', 'user');
      assertFile(f['target.txt'], EDITED, 'after the genuine retry');
    });
  });

  test('expired requestState (--approval-timeout 1, retry after 1.5 s): isError, nothing written; a fresh call asks anew', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('expired state', ['--root', f.dir, '--no-fsync', '--approval-timeout', '1'], async (s) => {
      const args = EDIT_ARGS(f['target.txt']);
      const { key, state } = assertInputRequired(await call(s, 'edit', args), 'first leg');
      await sleep(1500);  // the scenario: the retry comes after the 1 s --approval-timeout
      const r = await call(s, 'edit', args, { inputResponses: { [key]: APPLY }, requestState: state });
      assertRefused(r, 'retry after the requestState expired', /expired/i);
      assertFile(f['target.txt'], ORIGINAL, 'after the expired retry');
      const again = assertInputRequired(await call(s, 'edit', args), 'a fresh call after expiry');
      const ok = await call(s, 'edit', args, { inputResponses: { [again.key]: APPLY }, requestState: again.state });
      assertWritten(ok, 'fresh state answered in time', 'user');
      assertFile(f['target.txt'], EDITED, 'after the fresh approval');
    });
  });

  test('requestState replayed for another tool, other arguments or another file: isError, nothing written', async () => {
    const f = newDir({ 'target.txt': ORIGINAL, 'other.txt': ORIGINAL });
    await withRaw('rebound state', ['--root', f.dir, '--no-fsync'], async (s) => {
      const args = EDIT_ARGS(f['target.txt']);
      // the session reads the file, so a write of it is refused only for the state, not for "read first"
      const read = await call(s, 'read', { file_path: f['target.txt'] });
      assert.notEqual(read.isError, true, `read: ${show(read).slice(0, 300)}`);
      const { key, state } = assertInputRequired(await call(s, 'edit', args), 'first leg');
      const apply = { [key]: APPLY };
      const rebinds = [
        ['other new_string', 'edit', { ...args, new_string: 'EVIL' }, f['target.txt']],
        ['replace_all added', 'edit', { ...args, replace_all: true }, f['target.txt']],
        ['same edit on another file', 'edit', EDIT_ARGS(f['other.txt']), f['other.txt']],
        ['another tool (multiedit) with the same change', 'multiedit', { file_path: f['target.txt'], edits: [{ old_string: 'two', new_string: 'TWO' }] }, f['target.txt']],
        ['another tool (write)', 'write', { file_path: f['target.txt'], content: 'EVIL\n' }, f['target.txt']],
      ];
      for (const [label, tool, a, file] of rebinds) {
        const r = await call(s, tool, a, { inputResponses: apply, requestState: state });
        assertRefused(r, `requestState for edit(two→TWO) used with ${label}`, /requestState/);
        assertFile(file, ORIGINAL, `after the state was used with ${label}`);
      }
      assertFile(f['target.txt'], ORIGINAL, 'target after all rebinds');
      assertFile(f['other.txt'], ORIGINAL, 'other after all rebinds');
      const ok = await call(s, 'edit', args, { inputResponses: apply, requestState: state });
      assertWritten(ok, 'the genuine call after the rebinds', 'user');
      assertFile(f['target.txt'], EDITED, 'after the genuine retry');
    });
  });

  test('a valid requestState without inputResponses asks again; inputResponses without requestState asks, never writes', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('missing halves', ['--root', f.dir, '--no-fsync'], async (s) => {
      const args = EDIT_ARGS(f['target.txt']);
      const first = assertInputRequired(await call(s, 'edit', args), 'first leg');
      const again = assertInputRequired(await call(s, 'edit', args, { requestState: first.state }), 'retry with the state but no inputResponses');
      assertFile(f['target.txt'], ORIGINAL, 'after a retry without inputResponses');
      const noState = await call(s, 'edit', args, { inputResponses: { [first.key]: APPLY } });
      assert.ok(noState.resultType === 'input_required' || noState.isError === true,
        `inputResponses without requestState must not write; got ${show(noState).slice(0, 400)}`);
      assertFile(f['target.txt'], ORIGINAL, 'after inputResponses without requestState');
      const wrongKey = await call(s, 'edit', args, { inputResponses: { somethingElse: APPLY }, requestState: again.state });
      assert.ok(wrongKey.resultType === 'input_required' || wrongKey.isError === true,
        `an answer under another key is not the approval; got ${show(wrongKey).slice(0, 400)}`);
      assertFile(f['target.txt'], ORIGINAL, 'after an answer under another key');
      const ok = await call(s, 'edit', args, { inputResponses: { [again.key]: APPLY }, requestState: again.state });
      assertWritten(ok, 'the answered retry', 'user');
      assertFile(f['target.txt'], EDITED, 'after the answered retry');
    });
  });

  test('the file changes between the round trips (raw): fresh input_required with the new diff; the old state never writes', async () => {
    const f = newDir({ 'target.txt': ORIGINAL });
    await withRaw('changed between legs (raw)', ['--root', f.dir, '--no-fsync'], async (s) => {
      const args = EDIT_ARGS(f['target.txt']);
      const first = assertInputRequired(await call(s, 'edit', args), 'first leg');
      const external = 'one\ntwo\nthree\nfour\n';
      fs.writeFileSync(f['target.txt'], external);
      const r = await call(s, 'edit', args, { inputResponses: { [first.key]: APPLY }, requestState: first.state });
      const fresh = assertInputRequired(r, 'retry after the file changed');
      assert.equal(fresh.form.message, '(Changed on disk since approval was asked; this is the new change.) edit +1 -1 at line 2: target.txt\n-two\n+TWO',
        `the fresh form must say so on its first line and show the change: ${show(fresh.form.message)}`);
      assert.notEqual(fresh.state, first.state, 'a new requestState');
      assertFile(f['target.txt'], external, 'after the retry on a changed file');
      // the old state once more: still not an approval of the new content
      const old = await call(s, 'edit', args, { inputResponses: { [first.key]: APPLY }, requestState: first.state });
      assert.ok(old.resultType === 'input_required' || old.isError === true, `the stale state must not write: ${show(old).slice(0, 400)}`);
      assertFile(f['target.txt'], external, 'after replaying the stale state');
      const ok = await call(s, 'edit', args, { inputResponses: { [fresh.key]: APPLY }, requestState: fresh.state });
      assertWritten(ok, 'apply of the fresh diff', 'user');
      assertFile(f['target.txt'], 'one\nTWO\nthree\nfour\n', 'after applying the fresh diff');
    });
  });

  test('a used requestState replayed after the write does not write again', async () => {
    const f = newDir({ 'target.txt': 'x\n' });
    await withRaw('replay after success', ['--root', f.dir, '--no-fsync'], async (s) => {
      const args = { file_path: f['target.txt'], line: -1, text: 'appended' };
      const first = assertInputRequired(await call(s, 'insert', args), 'first leg');
      const ok = await call(s, 'insert', args, { inputResponses: { [first.key]: APPLY }, requestState: first.state });
      assertWritten(ok, 'insert approved', 'user');
      assertFile(f['target.txt'], 'x\nappended\n', 'after the approved insert');
      const replay = await call(s, 'insert', args, { inputResponses: { [first.key]: APPLY }, requestState: first.state });
      assert.ok(replay.resultType === 'input_required' || replay.isError === true,
        `replaying a used requestState must not insert again; got ${show(replay).slice(0, 400)}`);
      assertFile(f['target.txt'], 'x\nappended\n', 'after replaying the used requestState');
    });
  });

  test('input_required only for clients that declare elicitation: without it, ask writes by policy, require refuses', async () => {
    const f = newDir({ 'a.txt': ORIGINAL, 'b.txt': ORIGINAL });
    await withRaw('no elicitation, ask', ['--root', f.dir, '--no-fsync'], async (s) => {
      const r = await call(s, 'edit', EDIT_ARGS(f['a.txt']), {}, {});
      assertWritten(r, 'ask, clientCapabilities {}', 'policy');
      assertFile(f['a.txt'], EDITED, 'ask, clientCapabilities {}');
    });
    await withRaw('no elicitation, require', ['--root', f.dir, '--no-fsync', '--approval', 'require'], async (s) => {
      const r = await call(s, 'edit', EDIT_ARGS(f['b.txt']), {}, { roots: {} });
      assertRefused(r, 'require, clientCapabilities without elicitation', /require/i);
      assertFile(f['b.txt'], ORIGINAL, 'require, clientCapabilities without elicitation');
    });
  });
});
