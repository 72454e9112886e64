// `move` and `delete` through the official SDK client (legacy era, elicitation answered by the
// test): byte-exact moves of CRLF and non-UTF-8 files, the refusals, the approval declined, undo of
// both, an edit and a move of one file at once, and the session patch; every server line validated.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  assertNoProblems, drain, makeTempDir, modernMeta, outsideRootsRe, requireBinary, tappedServer, validateTapDir, textOf, show, withRawSession,
} from './helpers.mjs';

requireBinary();

/** A connected SDK client over a tapped server; `answer` decides each elicitation. */
async function connect(dir, label, extraArgs = []) {
  const tap = makeTempDir('mcp-edit-e2e-tap-');
  const tr = new StdioClientTransport(tappedServer(dir, tap, extraArgs));
  drain(tr.stderr);
  const client = new Client({ name: `mcp-edit-e2e-${label}`, version: '0.0.0' }, { capabilities: { elicitation: {} } });
  const box = { asked: [], answer: { action: 'accept', content: { decision: 'apply' } } };
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    box.asked.push(req.params);
    return box.answer;
  });
  await client.connect(tr);
  box.call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 10000 });
  box.close = async () => {
    await client.close().catch(() => {});
    assertNoProblems(validateTapDir(tap).problems, label);
  };
  return box;
}

function ok(r, what) {
  assert.notEqual(r?.isError, true, `${what}: must succeed, got ${show(r).slice(0, 700)}`);
  return r.structuredContent;
}

function refused(r, what, ...patterns) {
  assert.equal(r?.isError, true, `${what}: must be refused, got ${show(r).slice(0, 500)}`);
  for (const p of patterns) assert.match(textOf(r), p, `${what}: ${show(textOf(r))}`);
}

const exists = (p) => fs.existsSync(p);

describe('move and delete (SDK client, --approval ask)', { concurrency: true }, () => {
  test('CRLF and non-UTF-8 moved byte for byte as a rename; undo moves back; the session patch shows a rename', async () => {
    const dir = makeTempDir();
    const bytes = Buffer.from([0x61, 0x0d, 0x0a, 0xff, 0xfe, 0x62, 0x0d, 0x0a, 0x63]);  // a CRLF, invalid UTF-8, no final newline
    fs.writeFileSync(path.join(dir, 'a.txt'), bytes);
    fs.chmodSync(path.join(dir, 'a.txt'), 0o750);
    const s = await connect(dir, 'move');
    try {
      const moved = ok(await s.call('move', { from: 'a.txt', to: 'sub/b.txt' }), 'move');
      assert.equal(moved.approval, 'user');
      assert.match(s.asked.at(-1).message, /rename from a\.txt/, 'the form shows the rename');
      assert.match(moved.diff, /^diff --git a\/a\.txt b\/sub\/b\.txt\nsimilarity index 100%\nrename from a\.txt\nrename to sub\/b\.txt\n$/);
      assert.ok(!exists(path.join(dir, 'a.txt')));
      assert.deepEqual(fs.readFileSync(path.join(dir, 'sub/b.txt')), bytes);
      assert.equal(fs.statSync(path.join(dir, 'sub/b.txt')).mode & 0o777, 0o750);
      const patch = ok(await s.call('changes', {}), 'changes');
      assert.equal(patch.patch, 'diff --git a/a.txt b/sub/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to sub/b.txt\n');

      ok(await s.call('undo', { file_path: 'sub/b.txt' }), 'undo of the move');
      assert.deepEqual(fs.readFileSync(path.join(dir, 'a.txt')), bytes);
      assert.ok(!exists(path.join(dir, 'sub/b.txt')));
    } finally {
      await s.close();
    }
  });

  test('a binary file: moved byte for byte with its mode, deleted without a read (read cannot show it), git\'s Binary files line, undo restores it', async () => {
    const dir = makeTempDir();
    const bytes = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x00, 0x00, 0xff, 0x0d, 0x0a, 0x00, 0x01]);
    fs.writeFileSync(path.join(dir, 'tool.bin'), bytes);
    fs.chmodSync(path.join(dir, 'tool.bin'), 0o751);
    fs.writeFileSync(path.join(dir, 'gone.bin'), bytes.subarray(0, 7));
    const s = await connect(dir, 'binary');
    try {
      const moved = ok(await s.call('move', { from: 'tool.bin', to: 'bin/tool' }), 'move of a binary file');
      assert.match(moved.diff, /^diff --git a\/tool\.bin b\/bin\/tool\nsimilarity index 100%\nrename from tool\.bin\nrename to bin\/tool\n$/);
      assert.deepEqual(fs.readFileSync(path.join(dir, 'bin/tool')), bytes);
      assert.equal(fs.statSync(path.join(dir, 'bin/tool')).mode & 0o7777, 0o751);

      const deleted = await s.call('delete', { file_path: 'gone.bin' });
      ok(deleted, 'delete of a binary file');
      assert.match(s.asked.at(-1).message, /Binary files a\/gone\.bin and \/dev\/null differ/, 'the form names it as binary');
      assert.match(textOf(deleted), /a binary file of 7 bytes, sha256 [0-9a-f]{64}/);
      assert.ok(!exists(path.join(dir, 'gone.bin')));

      const patch = ok(await s.call('changes', {}), 'changes');
      assert.equal(patch.patch, 'diff --git a/tool.bin b/bin/tool\nsimilarity index 100%\nrename from tool.bin\nrename to bin/tool\n' +
        'Binary files a/gone.bin and /dev/null differ\n');

      ok(await s.call('undo', { file_path: 'gone.bin' }), 'undo of the deletion');
      assert.deepEqual(fs.readFileSync(path.join(dir, 'gone.bin')), bytes.subarray(0, 7));
      ok(await s.call('undo', { file_path: 'bin/tool' }), 'undo of the move');
      assert.deepEqual(fs.readFileSync(path.join(dir, 'tool.bin')), bytes);
      assert.equal(fs.statSync(path.join(dir, 'tool.bin')).mode & 0o7777, 0o751);
    } finally {
      await s.close();
    }
  });

  test('--history-dir: after a restart, changes still shows the rename and undo moves the file back with its mode', async () => {
    const dir = makeTempDir();
    const history = makeTempDir('mcp-edit-e2e-history-');
    const bytes = Buffer.from('x\r\ny \xff', 'latin1');
    fs.writeFileSync(path.join(dir, 'run.sh'), bytes);
    fs.chmodSync(path.join(dir, 'run.sh'), 0o700);
    const first = await connect(dir, 'restart-1', ['--history-dir', history]);
    try {
      ok(await first.call('move', { from: 'run.sh', to: 'scripts/run.sh' }), 'move');
    } finally {
      await first.close();
    }
    fs.chmodSync(path.join(dir, 'scripts/run.sh'), 0o755);  // the mode the move gave is not what undo restores
    const second = await connect(dir, 'restart-2', ['--history-dir', history]);
    try {
      const patch = ok(await second.call('changes', {}), 'changes after the restart');
      assert.equal(patch.patch, 'diff --git a/run.sh b/scripts/run.sh\nsimilarity index 100%\nrename from run.sh\nrename to scripts/run.sh\n');
      const undone = await second.call('undo', { file_path: 'scripts/run.sh' });
      ok(undone, 'undo after the restart');
      assert.match(undone.structuredContent.diff, /rename from scripts\/run\.sh\nrename to run\.sh/);
      assert.deepEqual(fs.readFileSync(path.join(dir, 'run.sh')), bytes);
      assert.equal(fs.statSync(path.join(dir, 'run.sh')).mode & 0o7777, 0o700);
      assert.ok(!exists(path.join(dir, 'scripts/run.sh')));
    } finally {
      await second.close();
    }
  });

  test('refusals: an existing target, unread delete, a folder, ignored and .git paths, outside the roots, symlinks', async () => {
    const dir = makeTempDir();
    const outside = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(dir, 'b.txt'), 'b\n');
    fs.writeFileSync(path.join(outside, 'o.txt'), 'o\n');
    fs.mkdirSync(path.join(dir, 'folder'));
    fs.writeFileSync(path.join(dir, 'folder/in.txt'), 'in\n');
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, '.git/HEAD'), 'ref\n');
    fs.symlinkSync(path.join(outside, 'o.txt'), path.join(dir, 'out-link.txt'));
    fs.symlinkSync(path.join(dir, 'b.txt'), path.join(dir, 'in-link.txt'));
    const s = await connect(dir, 'move-refusals');
    try {
      refused(await s.call('move', { from: 'a.txt', to: 'b.txt' }), 'onto an existing file', /already exists/, /overwrite: true/);
      refused(await s.call('move', { from: 'a.txt', to: 'b.txt', overwrite: true }), 'overwrite unread', /read/);
      refused(await s.call('delete', { file_path: 'a.txt' }), 'delete unread', /read/);
      refused(await s.call('move', { from: 'folder', to: 'folder2' }), 'a folder', /is a folder/);
      refused(await s.call('delete', { file_path: 'folder' }), 'a full folder', /not empty/);
      refused(await s.call('move', { from: '.git/HEAD', to: 'HEAD' }), '.git', /Git/);
      refused(await s.call('move', { from: 'a.txt', to: path.join(outside, 'x.txt') }), 'outside', outsideRootsRe(path.join(outside, 'x.txt'), dir));
      refused(await s.call('move', { from: 'out-link.txt', to: 'x.txt' }), 'a link out of the roots', outsideRootsRe('out-link.txt', dir));
      refused(await s.call('move', { from: 'in-link.txt', to: 'x.txt' }), 'a link inside', /symbolic link/);
      assert.equal(s.asked.length, 0, 'no refusal asks the human');
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\n');
      assert.equal(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8'), 'b\n');
      assert.equal(fs.readFileSync(path.join(outside, 'o.txt'), 'utf8'), 'o\n');
      assert.ok(!exists(path.join(outside, 'x.txt')));
      assert.ok(exists(path.join(dir, 'folder/in.txt')));
    } finally {
      await s.close();
    }
  });

  test('declined: nothing moved or deleted; dry run; delete after read, undo recreates it', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'c.txt');
    const bytes = Buffer.from('one\r\ntwo\r\n');
    fs.writeFileSync(file, bytes);
    const s = await connect(dir, 'delete');
    try {
      ok(await s.call('read', { file_path: file }), 'read');
      s.answer = { action: 'decline' };
      refused(await s.call('delete', { file_path: file }), 'declined delete', /declin/i);
      refused(await s.call('move', { from: file, to: path.join(dir, 'd.txt') }), 'declined move', /declin/i);
      assert.deepEqual(fs.readFileSync(file), bytes);
      assert.ok(!exists(path.join(dir, 'd.txt')));

      const dry = ok(await s.call('delete', { file_path: file, dry_run: true }), 'dry run');
      assert.equal(dry.approval, 'none');
      assert.ok(exists(file));

      s.answer = { action: 'accept', content: { decision: 'apply' } };
      const deleted = ok(await s.call('delete', { file_path: file }), 'delete');
      assert.match(deleted.diff, /^--- a\/c\.txt\n\+\+\+ \/dev\/null\n@@ -1,2 \+0,0 @@\n-one\n-two\n/);
      assert.ok(!exists(file));
      const patch = ok(await s.call('changes', {}), 'changes');
      assert.match(patch.patch, /\+\+\+ \/dev\/null/);
      ok(await s.call('undo', { file_path: file }), 'undo of the delete');
      assert.deepEqual(fs.readFileSync(file), bytes);
    } finally {
      await s.close();
    }
  });

  test('an edit and a move of one file sent together: both land, in the order they came', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'e.txt'), 'one\ntwo\n');
    const s = await connect(dir, 'move-lanes');
    try {
      const [edit, move] = await Promise.all([
        s.call('edit', { file_path: 'e.txt', old_string: 'two', new_string: 'TWO' }),
        s.call('move', { from: 'e.txt', to: 'f.txt' }),
      ]);
      ok(edit, 'edit');
      ok(move, 'move');
      assert.equal(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8'), 'one\nTWO\n');
      assert.ok(!exists(path.join(dir, 'e.txt')));
    } finally {
      await s.close();
    }
  });

  test('modern raw (MRTR): move and delete answer input_required; the retry with apply writes, with decline nothing', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'm.txt'), 'm\r\n');
    const caps = { elicitation: { form: {} } };
    await withRawSession('move MRTR', ['--root', dir, '--no-fsync'], async (s) => {
      let id = 1;
      const call = async (name, args, extra = {}) => {
        const r = await s.request(id++, 'tools/call', { name, arguments: args, ...extra, _meta: modernMeta(caps) });
        assert.ok(r.result, `tools/call ${name}: ${show(r).slice(0, 300)}`);
        return r.result;
      };
      const ask = async (name, args) => {
        const r = await call(name, args);
        assert.equal(r.resultType, 'input_required', `${name}: ${show(r).slice(0, 400)}`);
        const [key, ir] = Object.entries(r.inputRequests)[0];
        return { key, state: r.requestState, message: ir.params.message };
      };
      const answer = (q, action) => ({ inputResponses: { [q.key]: action === 'apply' ? { action: 'accept', content: { decision: 'apply' } } : { action } }, requestState: q.state });
      const moveArgs = { from: 'm.txt', to: 'n.txt' };
      const q1 = await ask('move', moveArgs);
      assert.match(q1.message, /rename from m\.txt/);
      refused(await call('move', moveArgs, answer(q1, 'decline')), 'declined', /declin/i);
      assert.ok(exists(path.join(dir, 'm.txt')) && !exists(path.join(dir, 'n.txt')));
      const q2 = await ask('move', moveArgs);
      const moved = await call('move', moveArgs, answer(q2, 'apply'));
      assert.equal(ok(moved, 'move applied').approval, 'user');
      assert.equal(fs.readFileSync(path.join(dir, 'n.txt'), 'utf8'), 'm\r\n');
      assert.ok(!exists(path.join(dir, 'm.txt')));

      await call('read', { file_path: 'n.txt' });
      const q3 = await ask('delete', { file_path: 'n.txt' });
      assert.match(q3.message, /^delete \+0 -1 .*n\.txt\n-m/);
      ok(await call('delete', { file_path: 'n.txt' }, answer(q3, 'apply')), 'delete applied');
      assert.ok(!exists(path.join(dir, 'n.txt')));
    });
  });
});
