// Results and messages (issue 10): every error carries a machine-readable reason in
// `_meta["io.github.mcp-edit/reason"]` (never structuredContent, so hosts that prefer it still show
// the whole message in content[0]); apply_diff counts a deletion as a block; a change inside one
// huge line shows the changed bytes; lines appended to a file without a final newline show at its
// end; the messages for paths outside the roots and for Roo's XML form say what is true.
// Raw JSON lines; every server line is validated against the official schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  RawSession, assertNoProblems, makeTempDir, requireBinary, show,
} from './helpers.mjs';

requireBinary();
const REASON = 'io.github.mcp-edit/reason';

async function withRaw(label, args, capabilities, body) {
  const s = new RawSession(args, { label });
  try {
    await s.initialize('2025-11-25', capabilities);
    let id = 100;
    const call = async (name, args_) => {
      const r = await s.request(id++, 'tools/call', { name, arguments: args_ });
      assert.ok(r.result, `tools/call ${name}: expected a result, got ${show(r).slice(0, 400)}`);
      return r.result;
    };
    await body(s, call);
  } finally {
    await s.close();
  }
  assertNoProblems(s.validator.problems, label);
}

/** An error result with this reason, its whole message in content[0], no structuredContent. */
function assertReason(r, reason, what, ...patterns) {
  assert.equal(r?.isError, true, `${what}: must be isError: true, got ${show(r).slice(0, 600)}`);
  assert.equal(r?._meta?.[REASON], reason, `${what}: _meta reason expected ${reason}, got ${show(r?._meta)}; ${show(r).slice(0, 600)}`);
  assert.equal(r.structuredContent, undefined, `${what}: an error has no structuredContent (hosts would hide content[0])`);
  const text = r.content?.[0]?.text ?? '';
  assert.ok(text.length > 20, `${what}: content[0] carries the message: ${show(text)}`);
  for (const p of patterns) assert.match(text, p, `${what}: ${show(text)}`);
  return text;
}

function assertOk(r, what) {
  assert.notEqual(r?.isError, true, `${what}: must succeed, got ${show(r).slice(0, 600)}`);
  assert.equal(r?._meta?.[REASON], undefined, `${what}: a success carries no error reason`);
  return r.structuredContent;
}

describe('errors carry a machine-readable reason in _meta', { concurrency: true }, () => {
  test('not_found, ambiguous, outside_root, not_read, stale, invalid_arguments, not_a_file, nothing_to_undo, exists, overlap', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo\ntwo\nthree\n');
    fs.mkdirSync(path.join(dir, 'sub'));
    await withRaw('reasons', ['--root', dir, '--no-fsync', '--approval', 'auto'], {}, async (s, call) => {
      assertReason(await call('edit', { file_path: file, old_string: 'four', new_string: '4' }), 'not_found', 'edit of absent text');
      assertReason(await call('edit', { file_path: file, old_string: 'two', new_string: '2' }), 'ambiguous', 'edit of repeated text');
      assertReason(await call('read', { file_path: '/etc/hostname' }), 'outside_root', 'read outside the root');
      assertReason(await call('read', { file_path: path.join(dir, 'missing.txt') }), 'not_found', 'read of a missing file');
      assertReason(await call('read', { file_path: path.join(dir, 'sub') }), 'not_a_file', 'read of a directory');
      assertReason(await call('write', { file_path: file, content: 'x\n' }), 'not_read', 'write over an unread file');
      assertOk(await call('read', { file_path: file }), 'read');
      fs.writeFileSync(file, 'one\ntwo\ntwo\nthree\nfour\n');
      assertReason(await call('write', { file_path: file, content: 'x\n' }), 'stale', 'write after another program changed the file');
      assertReason(await call('edit', { file_path: file, old_string: 'one' }), 'invalid_arguments', 'edit without new_string');
      assertReason(await call('edit', { file_path: file, old_string: 'one', new_string: 'one' }), 'invalid_arguments', 'edit changing nothing');
      assertReason(await call('read', { file_path: file, offset: 99 }), 'invalid_arguments', 'read past the end');
      assertReason(await call('undo', { file_path: file }), 'nothing_to_undo', 'undo with no history');
      assertReason(await call('edit', { file_path: file, old_string: '', new_string: 'x' }), 'exists', 'creating a file that exists');
      assertReason(await call('apply_diff', { file_path: file, diff: '<<<<<<< SEARCH\nfive\n=======\n5\n>>>>>>> REPLACE\n' }),
        'not_found', 'apply_diff block not found');
      assertReason(await call('apply_diff', {
        file_path: file,
        diff: '<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n<<<<<<< SEARCH\none\n=======\nuno\n>>>>>>> REPLACE\n',
      }), 'overlap', 'apply_diff blocks changing the same line');
      assertReason(await call('apply_diff', { diff: 'not a patch at all' }), 'invalid_arguments', 'apply_diff with no format');
      assertReason(await call('multiedit', { file_path: file, edits: [{ old_string: 'one', new_string: '1' }, { old_string: 'ten', new_string: '10' }] }),
        'not_found', 'multiedit whose second edit is absent');
      assertOk(await call('edit', { file_path: file, old_string: 'three', new_string: '3' }), 'a successful edit');
    });
  });

  test('rejected, cancelled and timeout from the approval form', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    await withRaw('approval reasons', ['--root', dir, '--no-fsync', '--approval-timeout', '1'], { elicitation: {} }, async (s) => {
      const isElicit = (m) => m && m.method === 'elicitation/create' && 'id' in m;
      let id = 10;
      for (const [answer, reason] of [
        [{ action: 'decline' }, 'rejected'],
        [{ action: 'accept', content: { decision: 'reject' } }, 'rejected'],
        [{ action: 'cancel' }, 'cancelled'],
        [null, 'timeout'],
      ]) {
        const callId = id++;
        s.send({ jsonrpc: '2.0', id: callId, method: 'tools/call', params: { name: 'edit', arguments: { file_path: file, old_string: 'one', new_string: '1' } } });
        const ask = await s.next(isElicit, { what: 'the approval form' });
        if (answer) s.send({ jsonrpc: '2.0', id: ask.id, result: answer });
        const r = await s.response(callId);
        assertReason(r.result, reason, `answer ${show(answer)}`, /[Nn]othing was written/);
        assert.equal(fs.readFileSync(file, 'utf8'), 'one\n', 'nothing written');
      }
    });
  });

  test('--approval require without forms: approval_unavailable', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    await withRaw('require', ['--root', dir, '--no-fsync', '--approval', 'require'], {}, async (s, call) => {
      assertReason(await call('edit', { file_path: file, old_string: 'one', new_string: '1' }), 'approval_unavailable', 'require without elicitation');
    });
  });
});

describe('messages that said what is not true', { concurrency: true }, () => {
  test('a missing path outside the roots is not said to resolve to /', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'x.py'), 'print(1)\n');
    await withRaw('outside', ['--root', dir, '--no-fsync', '--approval', 'auto'], {}, async (s, call) => {
      const text = assertReason(await call('read', { file_path: '/repo-mcp-edit-e2e/x.py' }), 'outside_root', 'read /repo/x.py');
      assert.doesNotMatch(text, /resolves to \/[,.]/, text);
      // Nor whether it exists (issue 39): an outside path is refused in the same words either way.
      assert.ok(text.startsWith(`Refused: /repo-mcp-edit-e2e/x.py is outside the allowed roots (${dir}).`), text);
      assert.doesNotMatch(text, /does not exist|nearest existing folder/, text);
      assert.ok(text.includes(`${dir}/x.py exists: if that is the file meant, pass x.py.`), text);
    });
  });

  test("Roo's XML form: one file is read as file_path + diff; several files are one patch, all or nothing", async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    fs.writeFileSync(path.join(dir, 'b.txt'), 'two\n');
    const block = (from, to) => `<diff>\n<content>\n<<<<<<< SEARCH\n${from}\n=======\n${to}\n>>>>>>> REPLACE\n</content>\n</diff>\n`;
    const one = `<args>\n<file>\n<path>a.txt</path>\n${block('one', '1')}</file>\n</args>\n`;
    const two = `<args>\n<file>\n<path>a.txt</path>\n${block('1', 'uno')}</file>\n<file>\n<path>b.txt</path>\n${block('two', '2')}</file>\n</args>\n`;
    await withRaw('roo xml', ['--root', dir, '--no-fsync', '--approval', 'auto'], {}, async (s, call) => {
      const r = await call('apply_diff', { diff: one });
      assertOk(r, 'Roo XML, one file');
      assert.equal(fs.readFileSync(file, 'utf8'), '1\n');
      assert.match(r.content[0].text, /Read the XML in `diff` as `file_path` and `diff`\./, r.content[0].text);
      // One file's block does not match: neither file is written.
      const bad = `<args>\n<file>\n<path>a.txt</path>\n${block('1', 'uno')}</file>\n<file>\n<path>b.txt</path>\n${block('absent', '2')}</file>\n</args>\n`;
      assertReason(await call('apply_diff', { args: bad }), 'not_found', 'Roo XML, two files, one block missing');
      assert.equal(fs.readFileSync(file, 'utf8'), '1\n', 'nothing written when one file fails');
      const r2 = await call('apply_diff', { args: two });
      assertOk(r2, 'Roo XML, two files');
      assert.match(r2.content[0].text, /Read the XML in `args` as one apply_diff over its 2 files/, r2.content[0].text);
      assert.equal(fs.readFileSync(file, 'utf8'), 'uno\n');
      assert.equal(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8'), '2\n');
    });
  });
});

describe('diffs and counts', { concurrency: true }, () => {
  test('apply_diff counts a deletion as a block: 1 for a Delete File, 3 for three files', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'gone.txt'), 'bye\n');
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'a\nb\n');
    fs.writeFileSync(path.join(dir, 'gone2.txt'), 'bye too\n');
    await withRaw('blocks', ['--root', dir, '--no-fsync', '--approval', 'auto'], {}, async (s, call) => {
      await call('read', { file_path: 'gone.txt' });
      await call('read', { file_path: 'gone2.txt' });
      const one = assertOk(await call('apply_diff', { diff: '*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n' }), 'Delete File');
      assert.equal(one.blocks_applied, 1, show(one));
      assert.equal(one.blocks.length, 1, show(one.blocks));
      assert.equal(one.blocks[0].match, 'deleted', show(one.blocks));
      assert.match(one.summary, /1 block\b/, one.summary);
      assert.ok(!fs.existsSync(path.join(dir, 'gone.txt')));
      const three = assertOk(await call('apply_diff', {
        diff: '*** Begin Patch\n*** Add File: new.txt\n+hello\n*** Update File: keep.txt\n@@\n a\n-b\n+B\n*** Delete File: gone2.txt\n*** End Patch\n',
      }), 'three files');
      assert.equal(three.blocks_applied, 3, show(three));
      assert.deepEqual(three.blocks.map((b) => b.match).sort(), ['created', 'deleted', 'exact'], show(three.blocks));
      assert.match(three.summary, /3 blocks/, three.summary);
    });
  });

  test('a change inside a 300 KB one-line file shows the changed bytes', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'one-line.min.js');
    let line = '';
    for (let i = 0; line.length < 300000; i++) line += `v${i}=1;`;
    fs.writeFileSync(file, line);
    const middle = line.slice(150000, 150040);
    await withRaw('huge line', ['--root', dir, '--no-fsync', '--approval', 'auto'], {}, async (s, call) => {
      const sc = assertOk(await call('edit', { file_path: file, old_string: middle, new_string: 'CHANGED_HERE' }), 'edit in the huge line');
      assert.doesNotMatch(sc.diff, /diff cut here/, sc.diff.slice(0, 500));
      assert.match(sc.diff, /^\+.*CHANGED_HERE/m, sc.diff.slice(0, 2000));
      assert.ok(sc.diff.includes(`-[\u2026 `) && sc.diff.includes(middle), sc.diff.slice(0, 2000));
      assert.ok(sc.diff.length < 8192, `bounded: ${sc.diff.length} bytes`);
      assert.equal(sc.diff_truncated, true);
    });
  });

  test('lines appended to a file without a final newline show at its end (insert -1 and edit)', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'f.rs');
    fs.writeFileSync(file, 'fn a() {\n}');
    await withRaw('append', ['--root', dir, '--no-fsync', '--approval', 'auto'], {}, async (s, call) => {
      const ins = assertOk(await call('insert', { file_path: file, line: -1, text: 'fn b() {\n}' }), 'insert -1');
      assert.equal(fs.readFileSync(file, 'utf8'), 'fn a() {\n}\nfn b() {\n}');
      assert.equal(ins.diff, `--- a/f.rs\n+++ b/f.rs\n@@ -1,2 +1,4 @@\n fn a() {\n-}\n\\ No newline at end of file\n+}\n+fn b() {\n+}\n\\ No newline at end of file\n`);
      assert.equal(ins.first_changed_line, 2);
      const ed = assertOk(await call('edit', { file_path: file, old_string: 'fn b() {\n}', new_string: 'fn b() {\n}\nfn c() {\n}' }), 'edit appending');
      assert.equal(fs.readFileSync(file, 'utf8'), 'fn a() {\n}\nfn b() {\n}\nfn c() {\n}');
      assert.equal(ed.diff, `--- a/f.rs\n+++ b/f.rs\n@@ -1,4 +1,6 @@\n fn a() {\n }\n fn b() {\n-}\n\\ No newline at end of file\n+}\n+fn c() {\n+}\n\\ No newline at end of file\n`);
    });
  });
});
