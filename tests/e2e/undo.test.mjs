// `undo`: reverts the latest change this server made to a file if the file is still
// exactly what the server wrote; repeated calls walk back; undoing a creation removes the file;
// it passes the same approval gate as every change. Raw lines (policy auto) for the mechanics,
// the SDK 1.32.2 client for the legacy gate, raw modern lines for the MRTR gate. The file on disk
// is compared byte for byte after every step; every server line is validated against the schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  RawSession, assertNoProblems, drain, makeTempDir, modernMeta, requireBinary, tappedServer,
  validateTapDir, assertFile, textOf, show, withRawSession,
} from './helpers.mjs';

requireBinary();
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const bytes = (...parts) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))));



function assertOk(r, what, approval) {
  assert.notEqual(r?.isError, true, `${what}: must succeed, got ${show(r).slice(0, 700)}`);
  assert.notEqual(r?.resultType, 'input_required', `${what}: expected a complete result, got input_required`);
  const sc = r?.structuredContent;
  assert.ok(sc && typeof sc === 'object', `${what}: structuredContent missing: ${show(r).slice(0, 400)}`);
  if (approval !== undefined) assert.equal(sc.approval, approval, `${what}: approval expected ${show(approval)}, got ${show(sc.approval)}`);
  return sc;
}

function assertError(r, what, ...patterns) {
  assert.equal(r?.isError, true, `${what}: must be isError: true, got ${show(r).slice(0, 700)}`);
  const t = textOf(r);
  for (const p of patterns) assert.match(t, p, `${what}: the text must match ${p}: ${show(t)}`);
  return t;
}

/** Checks an undo result: what it reverted and the approval. */
function assertUndone(r, what, { tool, approval = 'policy', deleted = false } = {}) {
  const sc = assertOk(r, what, approval);
  assert.equal(sc.dry_run, false, `${what}: dry_run: ${show(sc)}`);
  if (tool) assert.equal(sc.undone_tool, tool, `${what}: undone_tool expected ${show(tool)}, got ${show(sc.undone_tool)}`);
  assert.equal(sc.deleted === true, deleted, `${what}: deleted expected ${deleted}, got ${show(sc.deleted)}`);
  assert.ok(typeof sc.diff === 'string' && sc.diff.length > 0, `${what}: an undo shows its diff: ${show(sc.diff)}`);
  // The summary says what was undone (not like a fresh change) and how far back undo can go.
  if (tool) assert.match(sc.summary, new RegExp(`^Undid the latest ${tool} of `), `${what}: the summary names the undone ${tool}: ${show(sc.summary)}`);
  assert.match(sc.summary, /(no earlier change of this file by this server is left to undo|\d+ earlier changes? of this file by this server can still be undone)/i,
    `${what}: the summary says how far back undo can still go: ${show(sc.summary)}`);
  assert.ok(textOf(r).startsWith(sc.summary), `${what}: content[0] starts with the same summary: ${show(textOf(r).slice(0, 200))}`);
  return sc;
}

const withRaw = (label, args, body) => withRawSession(label, args, body);

/** A legacy raw session (policy auto by default): `s.tool(name, args)` returns the tools/call result. */
function legacyTools(s) {
  let id = 1000;
  return async (name, args) => {
    const r = await s.request(id++, 'tools/call', { name, arguments: args });
    assert.ok(r.result, `tools/call ${name} ${show(args).slice(0, 200)}: expected a result, got ${show(r).slice(0, 400)}`);
    return r.result;
  };
}

describe('undo mechanics (legacy raw lines, --approval auto)', { concurrency: true }, () => {
  test('walks back edit, insert, multiedit and write one by one, byte for byte (BOM, CRLF, no final newline); then nothing is left', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'tricky.txt');
    const s0 = bytes(BOM, 'alpha\r\nbeta\r\ngamma');
    fs.writeFileSync(file, s0);
    await withRaw('undo walk back', ['--root', dir, '--no-fsync', '--approval', 'auto'], async (s) => {
      await s.initialize('2025-11-25', {});
      const tool = legacyTools(s);
      const states = [s0];
      const steps = [
        ['edit', { file_path: file, old_string: 'beta', new_string: 'BETA' }, bytes(BOM, 'alpha\r\nBETA\r\ngamma')],
        ['insert', { file_path: file, line: 1, text: 'inserted' }, bytes(BOM, 'alpha\r\ninserted\r\nBETA\r\ngamma')],
        ['multiedit', { file_path: file, edits: [{ old_string: 'alpha', new_string: 'ALPHA' }, { old_string: 'gamma', new_string: 'GAMMA' }] }, bytes(BOM, 'ALPHA\r\ninserted\r\nBETA\r\nGAMMA')],
        ['write', { file_path: file, content: 'written whole\nby write\n' }, undefined],
      ];
      for (const [name, args, expected] of steps) {
        assertOk(await tool(name, args), `${name} before the undos`, 'policy');
        if (expected) assertFile(file, expected, `after ${name}`);
        else assert.match(fs.readFileSync(file, 'utf8'), /written whole/, `after write: ${show(fs.readFileSync(file, 'utf8'))}`);
        states.push(fs.readFileSync(file));
      }
      for (let i = steps.length; i >= 1; i--) {
        const undone = steps[i - 1][0];
        const r = await tool('undo', { file_path: file });
        assertUndone(r, `undo #${steps.length - i + 1} (reverting ${undone})`, { tool: undone });
        assertFile(file, states[i - 1], `after undo #${steps.length - i + 1} (reverting ${undone}): the state before ${undone}`);
      }
      const none = await tool('undo', { file_path: file });
      assertError(none, 'undo with every change already undone', /nothing (more )?to undo/i);
      assertFile(file, s0, 'after the refused extra undo');
    });
  });

  test('undoing a creation removes the file (deleted: true, diff to /dev/null); undo walks back through edits of a created file first', async () => {
    const dir = makeTempDir();
    const created = path.join(dir, 'made', 'new.txt');
    const written = path.join(dir, 'written.txt');
    await withRaw('undo creation', ['--root', dir, '--no-fsync', '--approval', 'auto'], async (s) => {
      await s.initialize('2025-11-25', {});
      const tool = legacyTools(s);
      const c = assertOk(await tool('edit', { file_path: created, old_string: '', new_string: 'hello\n' }), 'edit creating a file', 'policy');
      assert.equal(c.created, true, `edit with empty old_string creates: ${show(c)}`);
      assertFile(created, 'hello\n', 'after the creating edit');
      assertOk(await tool('edit', { file_path: created, old_string: 'hello', new_string: 'HELLO' }), 'edit of the created file', 'policy');
      assertFile(created, 'HELLO\n', 'after the second edit');

      assertUndone(await tool('undo', { file_path: created }), 'undo of the second edit', { tool: 'edit' });
      assertFile(created, 'hello\n', 'after undoing the second edit');
      const sc = assertUndone(await tool('undo', { file_path: created }), 'undo of the creation', { tool: 'edit', deleted: true });
      assert.match(sc.diff, /^\+\+\+ \/dev\/null$/m, `a removal's diff ends at /dev/null: ${show(sc.diff)}`);
      assert.match(sc.diff, /^--- a\//m, `a removal's diff starts from a/PATH: ${show(sc.diff)}`);
      assert.match(sc.diff, /^-hello$/m, `the removal's diff shows the removed line: ${show(sc.diff)}`);
      assertFile(created, null, 'after undoing the creation');
      assertError(await tool('undo', { file_path: created }), 'undo after the creation was undone', /nothing (more )?to undo/i);
      assertFile(created, null, 'after the refused undo of a removed file');

      assertOk(await tool('write', { file_path: written, content: 'from write\n' }), 'write creating a file', 'policy');
      assertFile(written, 'from write\n', 'after the creating write');
      assertUndone(await tool('undo', { file_path: written }), 'undo of the creating write', { tool: 'write', deleted: true });
      assertFile(written, null, 'after undoing the creating write');
    });
  });

  test('refused when the file changed since the server wrote it (isError with the diff between the two); allowed again once it is back', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'drift.txt');
    const gone = path.join(dir, 'gone.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    fs.writeFileSync(gone, 'bye\n');
    await withRaw('undo after drift', ['--root', dir, '--no-fsync', '--approval', 'auto'], async (s) => {
      await s.initialize('2025-11-25', {});
      const tool = legacyTools(s);
      assertOk(await tool('edit', { file_path: file, old_string: 'two', new_string: 'TWO' }), 'edit', 'policy');
      assertFile(file, 'one\nTWO\nthree\n', 'after the edit');
      const drifted = 'one\nTWO\nthree\nadded by someone else\n';
      fs.writeFileSync(file, drifted);
      const t = assertError(await tool('undo', { file_path: file }), 'undo after another program changed the file', /changed/i, /nothing was changed|nothing (was )?written/i);
      assert.match(t, /^\+added by someone else$/m, `the refusal must carry the diff between what the server wrote and the file now: ${show(t)}`);
      assertFile(file, drifted, 'after the refused undo');
      // put back exactly what the server wrote: the undo is allowed again
      fs.writeFileSync(file, 'one\nTWO\nthree\n');
      assertUndone(await tool('undo', { file_path: file }), 'undo once the file is again what the server wrote', { tool: 'edit' });
      assertFile(file, 'one\ntwo\nthree\n', 'after the undo');

      assertOk(await tool('edit', { file_path: gone, old_string: 'bye', new_string: 'BYE' }), 'edit of gone.txt', 'policy');
      fs.unlinkSync(gone);
      assertError(await tool('undo', { file_path: gone }), 'undo of a file deleted by another program', /no longer exists|not what this server wrote|does not exist|missing/i);
      assertFile(gone, null, 'the deleted file is not recreated');
    });
  });

  test('dry_run shows the revert and writes nothing (and does not use up the history); nothing to undo for an untouched file', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'a.txt');
    const untouched = path.join(dir, 'untouched.txt');
    fs.writeFileSync(file, 'x = 1\n');
    fs.writeFileSync(untouched, 'still\n');
    await withRaw('undo dry run', ['--root', dir, '--no-fsync', '--approval', 'auto'], async (s) => {
      await s.initialize('2025-11-25', {});
      const tool = legacyTools(s);
      assertOk(await tool('edit', { file_path: file, old_string: 'x = 1', new_string: 'x = 2' }), 'edit', 'policy');
      const dry = assertOk(await tool('undo', { file_path: file, dry_run: true }), 'undo dry run', 'none');
      assert.equal(dry.dry_run, true, `dry_run: ${show(dry)}`);
      assert.match(dry.diff, /^-x = 2$/m, `the dry run's diff removes the edit: ${show(dry.diff)}`);
      assert.match(dry.diff, /^\+x = 1$/m, `the dry run's diff restores the old line: ${show(dry.diff)}`);
      assertFile(file, 'x = 2\n', 'after the undo dry run');
      assertUndone(await tool('undo', { file_path: file }), 'undo after the dry run', { tool: 'edit' });
      assertFile(file, 'x = 1\n', 'after the real undo');
      assertError(await tool('undo', { file_path: untouched }), 'undo of a file this server never changed', /nothing (more )?to undo/i);
      assertFile(untouched, 'still\n', 'untouched file');
    });
  });

  test('the history belongs to the server process: a new server has nothing to undo', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'v1\n');
    await withRaw('undo first process', ['--root', dir, '--no-fsync', '--approval', 'auto'], async (s) => {
      await s.initialize('2025-11-25', {});
      assertOk(await legacyTools(s)('edit', { file_path: file, old_string: 'v1', new_string: 'v2' }), 'edit', 'policy');
    });
    assertFile(file, 'v2\n', 'after the first process');
    await withRaw('undo second process', ['--root', dir, '--no-fsync', '--approval', 'auto'], async (s) => {
      await s.initialize('2025-11-25', {});
      assertError(await legacyTools(s)('undo', { file_path: file }), 'undo in a new process', /nothing (more )?to undo/i);
    });
    assertFile(file, 'v2\n', 'after the second process');
  });
});

describe('undo passes the approval gate', { concurrency: true }, () => {
  test('legacy (SDK 1.32.2, --approval ask): undo sends its own elicitation; decline and reject keep the file, apply reverts', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'gated.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(dir, tap));
    drain(tr.stderr);
    const client = new Client({ name: 'mcp-edit-e2e-undo-gate', version: '0.0.0' }, { capabilities: { elicitation: {} } });
    const asked = [];
    let answer = { action: 'accept', content: { decision: 'apply' } };
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return answer;
    });
    const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 10000 });
    try {
      await client.connect(tr);
      assertOk(await call('edit', { file_path: file, old_string: 'two', new_string: 'TWO' }), 'edit approved', 'user');
      assertFile(file, 'one\nTWO\nthree\n', 'after the approved edit');
      assert.equal(asked.length, 1, 'the edit asked once');

      answer = { action: 'decline' };
      assertError(await call('undo', { file_path: file }), 'undo declined', /declin/i, /nothing (was )?written/i);
      assert.equal(asked.length, 2, `undo must send its own elicitation/create; ${asked.length - 1} sent for it`);
      const form = asked[1];
      for (const piece of ['undo', 'gated.txt', '-TWO', '+two']) {
        assert.ok(form.message.includes(piece), `the undo form must contain ${show(piece)}: ${show(form.message)}`);
      }
      assert.deepEqual(form.requestedSchema?.properties?.decision?.oneOf?.map((o) => o.const), ['apply', 'apply_session', 'reject'], `the undo form's decision: ${show(form.requestedSchema)}`);
      assertFile(file, 'one\nTWO\nthree\n', 'after the declined undo');

      answer = { action: 'accept', content: { decision: 'reject', feedback: 'keep the capitals' } };
      assertError(await call('undo', { file_path: file }), 'undo rejected', /reject/i, /Feedback from the user: keep the capitals/);
      assertFile(file, 'one\nTWO\nthree\n', 'after the rejected undo');

      answer = { action: 'accept', content: { decision: 'apply' } };
      assertUndone(await call('undo', { file_path: file }), 'undo applied', { tool: 'edit', approval: 'user' });
      assertFile(file, 'one\ntwo\nthree\n', 'after the applied undo');
      assert.equal(asked.length, 4, `4 elicitations expected (edit + 3 undos), got ${asked.length}`);

      assertError(await call('undo', { file_path: file }), 'undo with nothing left', /nothing (more )?to undo/i);
      assert.equal(asked.length, 4, 'an undo that cannot be done must not ask the human to approve it');
      assertFile(file, 'one\ntwo\nthree\n', 'after the refused undo');
    } finally {
      await client.close().catch(() => {});
    }
    const { problems } = validateTapDir(tap);
    assertNoProblems(problems, 'undo gate (SDK 1.32.2)');
  });

  test('legacy raw, --approval require + a client without elicitation: the edit is refused, undo has nothing to revert', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'keep\n');
    await withRaw('undo under require', ['--root', dir, '--no-fsync', '--approval', 'require'], async (s) => {
      await s.initialize('2025-11-25', {});
      const tool = legacyTools(s);
      assertError(await tool('edit', { file_path: file, old_string: 'keep', new_string: 'lose' }), 'edit under require', /require/i);
      assertError(await tool('undo', { file_path: file }), 'undo under require with nothing written', /nothing (more )?to undo|require/i);
      assertFile(file, 'keep\n', 'under require');
    });
  });

  test('modern raw (MRTR): undo answers input_required with its own form; its requestState cannot approve an edit; apply reverts', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'mrtr.txt');
    fs.writeFileSync(file, 'alpha\nbeta\n');
    const caps = { elicitation: { form: {} } };
    await withRaw('undo MRTR', ['--root', dir, '--no-fsync'], async (s) => {
      let id = 1;
      const call = async (name, args, extra = {}) => {
        const r = await s.request(id++, 'tools/call', { name, arguments: args, ...extra, _meta: modernMeta(caps) });
        assert.ok(r.result, `tools/call ${name}: ${show(r).slice(0, 300)}`);
        return r.result;
      };
      const inputRequired = (r, what) => {
        assert.equal(r.resultType, 'input_required', `${what}: expected input_required, got ${show(r).slice(0, 500)}`);
        const [key, ir] = Object.entries(r.inputRequests ?? {})[0] ?? [];
        assert.equal(ir?.method, 'elicitation/create', `${what}: inputRequests: ${show(r.inputRequests)}`);
        return { key, message: ir.params.message, state: r.requestState };
      };
      const editArgs = { file_path: file, old_string: 'beta', new_string: 'BETA' };
      const e = inputRequired(await call('edit', editArgs), 'edit');
      assertOk(await call('edit', editArgs, { inputResponses: { [e.key]: { action: 'accept', content: { decision: 'apply' } } }, requestState: e.state }), 'edit approved through MRTR', 'user');
      assertFile(file, 'alpha\nBETA\n', 'after the MRTR edit');

      const u = inputRequired(await call('undo', { file_path: file }), 'undo');
      for (const piece of ['undo', 'mrtr.txt', '-BETA', '+beta']) {
        assert.ok(u.message.includes(piece), `the undo form must contain ${show(piece)}: ${show(u.message)}`);
      }
      assertFile(file, 'alpha\nBETA\n', 'while the undo waits for its approval');
      const misuse = await call('edit', { file_path: file, old_string: 'BETA', new_string: 'beta' }, { inputResponses: { [u.key]: { action: 'accept', content: { decision: 'apply' } } }, requestState: u.state });
      assertError(misuse, 'the undo\'s requestState used for an edit', /requestState/);
      assertFile(file, 'alpha\nBETA\n', 'after the misused state');
      const declined = await call('undo', { file_path: file }, { inputResponses: { [u.key]: { action: 'decline' } }, requestState: u.state });
      assertError(declined, 'undo declined through MRTR', /declin/i);
      assertFile(file, 'alpha\nBETA\n', 'after the declined undo');
      const u2 = inputRequired(await call('undo', { file_path: file }), 'undo asked again');
      assertUndone(await call('undo', { file_path: file }, { inputResponses: { [u2.key]: { action: 'accept', content: { decision: 'apply' } } }, requestState: u2.state }),
        'undo approved through MRTR', { tool: 'edit', approval: 'user' });
      assertFile(file, 'alpha\nbeta\n', 'after the approved undo');
    });
  });
});
