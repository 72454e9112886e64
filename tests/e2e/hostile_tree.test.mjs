// The tree as a hostile neighbour process leaves it: a folder inside the root swapped for a symlink
// to outside while writes run or while the approval form is open; a hard link inside the root to a
// file outside; two servers editing one file; temp files a killed server left behind. Each case
// checks the bytes on disk outside the root as well as the replies.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { RawSession, makeTempDir, show, textOf, sleep } from './helpers.mjs';

const call = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const ok = (r) => r.result && !r.result.isError;
const filesUnder = (dir) => fs.readdirSync(dir, { recursive: true }).map(String);

// A child node process that flips `name` between a folder and a symlink to `outside`, with
// atomic renames, until it is killed.
function startSwapper(root, name, outside) {
  const script = `
    const fs = require('fs'); const path = require('path');
    const [root, name, outside] = process.argv.slice(1);
    const real = path.join(root, name), hold = path.join(root, name + '.hold'), link = path.join(root, name + '.link');
    try { fs.symlinkSync(outside, link); } catch {}
    for (;;) {
      try { fs.renameSync(real, hold); } catch {}
      try { fs.renameSync(link, real); } catch {}
      try { fs.renameSync(real, link); } catch {}
      try { fs.renameSync(hold, real); } catch {}
    }`;
  return spawn(process.execPath, ['-e', script, root, name, outside], { stdio: 'ignore' });
}

test('a folder swapped for a symlink to outside during 1,500 writes: nothing is created outside the root', async () => {
  const root = makeTempDir();
  const outside = makeTempDir('mcp-edit-outside-');
  fs.mkdirSync(path.join(root, 'real'));
  const swapper = startSwapper(root, 'real', outside);
  const s = new RawSession(['--root', root, '--approval', 'auto', '--no-fsync', '--log-level', 'off'], { label: 'swap-writes' });
  const N = 1500;
  let succeeded = 0;
  try {
    await s.initialize();
    await sleep(100);  // the swapper is running
    for (let i = 0; i < N; i++) s.send(call(i + 1, 'write', { file_path: `real/f${i}.txt`, content: `file ${i}\n` }));
    for (let i = 0; i < N; i++) if (ok(await s.response(i + 1, { timeout: 60000 }))) succeeded++;
  } finally {
    swapper.kill('SIGKILL');
    await s.close();
  }
  const escaped = filesUnder(outside);
  assert.deepEqual(escaped, [], `${escaped.length} files were created outside the root: ${escaped.slice(0, 5).join(', ')}`);
  // Every success is a file inside the root (in the folder, wherever the swapper left it).
  const inside = filesUnder(root).filter((f) => /f\d+\.txt$/.test(f));
  assert.ok(succeeded > 0, 'no write succeeded at all: the test did not exercise the race');
  assert.ok(inside.length >= succeeded, `${succeeded} writes reported success but only ${inside.length} files are inside the root`);
});

test('a folder swapped for a symlink while the approval form is open: Apply writes nothing outside', async () => {
  const root = makeTempDir();
  const outside = makeTempDir('mcp-edit-outside-');
  fs.mkdirSync(path.join(root, 'real'));
  fs.writeFileSync(path.join(root, 'real', 't.txt'), 'one\ntwo\n');
  fs.writeFileSync(path.join(outside, 't.txt'), 'one\ntwo\n');
  const s = new RawSession(['--root', root, '--log-level', 'off'], { label: 'swap-form' });
  try {
    await s.initialize('2025-11-25', { elicitation: {} });
    s.send(call(1, 'edit', { file_path: 'real/t.txt', old_string: 'two', new_string: 'TWO' }));
    const ask = await s.next((m) => m.method === 'elicitation/create', { what: 'the approval form' });
    fs.renameSync(path.join(root, 'real'), path.join(root, 'real.hold'));
    fs.symlinkSync(outside, path.join(root, 'real'));
    s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { decision: 'apply' } } });
    const r = await s.response(1, { timeout: 10000 });
    assert.equal(fs.readFileSync(path.join(outside, 't.txt'), 'utf8'), 'one\ntwo\n', 'the file outside the root was changed');
    assert.ok(r.result?.isError, `the write must be refused, got ${show(r).slice(0, 400)}`);
    assert.match(textOf(r.result), /changed after it was checked/, 'the refusal says the path changed');
  } finally {
    await s.close();
  }
});

test('a symlink inside the root to a folder inside the root keeps working', async () => {
  const root = makeTempDir();
  fs.mkdirSync(path.join(root, 'target'));
  fs.writeFileSync(path.join(root, 'target', 'a.txt'), 'alpha\n');
  fs.symlinkSync(path.join(root, 'target'), path.join(root, 'via'));
  fs.symlinkSync('target', path.join(root, 'relative'));
  const s = new RawSession(['--root', root, '--approval', 'auto', '--log-level', 'off'], { label: 'inner-symlink' });
  try {
    await s.initialize();
    const r = await s.request(1, 'tools/call', { name: 'edit', arguments: { file_path: 'via/a.txt', old_string: 'alpha', new_string: 'beta' } });
    assert.ok(ok(r), `edit through an inner symlink failed: ${show(r).slice(0, 400)}`);
    const w = await s.request(2, 'tools/call', { name: 'write', arguments: { file_path: 'relative/new/b.txt', content: 'b\n' } });
    assert.ok(ok(w), `write through an inner relative symlink failed: ${show(w).slice(0, 400)}`);
  } finally {
    await s.close();
  }
  assert.equal(fs.readFileSync(path.join(root, 'target', 'a.txt'), 'utf8'), 'beta\n');
  assert.equal(fs.readFileSync(path.join(root, 'target', 'new', 'b.txt'), 'utf8'), 'b\n');
  assert.ok(fs.lstatSync(path.join(root, 'via')).isSymbolicLink(), 'the symlink stays a symlink');
});

test('a hard link to a file outside the root: the outside file keeps its bytes, the result says so', async () => {
  const root = makeTempDir();
  const outside = makeTempDir('mcp-edit-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'key = 1\n');
  fs.linkSync(path.join(outside, 'secret.txt'), path.join(root, 'a.txt'));
  const s = new RawSession(['--root', root, '--approval', 'auto', '--log-level', 'off'], { label: 'hard-link' });
  try {
    await s.initialize();
    const r = await s.request(1, 'tools/call', { name: 'edit', arguments: { file_path: 'a.txt', old_string: 'key = 1', new_string: 'key = 2' } });
    assert.ok(ok(r), `edit failed: ${show(r).slice(0, 400)}`);
    assert.match(textOf(r.result), /1 other name \(hard links\).*keep the old content/s, 'the result says the other name keeps its content');
  } finally {
    await s.close();
  }
  assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'key = 1\n', 'the file outside the root changed');
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'key = 2\n');
  assert.equal(fs.statSync(path.join(root, 'a.txt')).nlink, 1, 'a.txt has a file of its own now');
});

test('--write-through-hard-links writes through every name', async () => {
  const root = makeTempDir();
  fs.writeFileSync(path.join(root, 'a.txt'), 'x = 1\n');
  fs.linkSync(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
  const s = new RawSession(['--root', root, '--approval', 'auto', '--write-through-hard-links', '--log-level', 'off'], { label: 'write-through' });
  try {
    await s.initialize();
    const r = await s.request(1, 'tools/call', { name: 'edit', arguments: { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' } });
    assert.ok(ok(r), `edit failed: ${show(r).slice(0, 400)}`);
    assert.doesNotMatch(textOf(r.result), /other name/, 'no note when writing through');
  } finally {
    await s.close();
  }
  assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'x = 2\n', 'the other name must see the change');
});

test('with --ignore-reads a file with another name is not read (the other name may be ignored)', async () => {
  const root = makeTempDir();
  fs.writeFileSync(path.join(root, '.mcp-editignore'), 'secrets/\n');
  fs.mkdirSync(path.join(root, 'secrets'));
  fs.writeFileSync(path.join(root, 'secrets', 'token'), 'TOKEN=hunter2\n');
  fs.linkSync(path.join(root, 'secrets', 'token'), path.join(root, 'innocent.txt'));
  const s = new RawSession(['--root', root, '--ignore-reads', '--log-level', 'off'], { label: 'ignore-reads-link' });
  try {
    await s.initialize();
    const r = await s.request(1, 'tools/call', { name: 'read', arguments: { file_path: 'innocent.txt' } });
    assert.ok(r.result?.isError, `read must be refused: ${show(r).slice(0, 400)}`);
    assert.doesNotMatch(JSON.stringify(r), /hunter2/, 'the ignored content leaked');
    assert.match(textOf(r.result), /other name/);
    // A file this session changed, replaced afterwards by a hard link to the ignored file: the
    // session's changes do not show its content.
    fs.writeFileSync(path.join(root, 'notes.txt'), 'a\n');
    const w = await s.request(2, 'tools/call', { name: 'edit', arguments: { file_path: 'notes.txt', old_string: 'a', new_string: 'b' } });
    assert.ok(ok(w), show(w).slice(0, 300));
    fs.rmSync(path.join(root, 'notes.txt'));
    fs.linkSync(path.join(root, 'secrets', 'token'), path.join(root, 'notes.txt'));
    const c = await s.request(3, 'tools/call', { name: 'changes', arguments: {} });
    assert.doesNotMatch(JSON.stringify(c), /hunter2/, 'the ignored content leaked through the session changes');
    const patch = await s.request(4, 'resources/read', { uri: 'mcp-edit://session/patch' });
    assert.doesNotMatch(JSON.stringify(patch), /hunter2/, 'the ignored content leaked through the session patch resource');
  } finally {
    await s.close();
  }
});

// Two servers on one tree, each editing every other line of one file, all requests in flight.
test('two servers × 500 edits of alternate lines of one file: no update is lost', async () => {
  const root = makeTempDir();
  const N = 500;
  const label = (i) => String(i).padStart(4, '0');
  const file = path.join(root, 'shared.txt');
  fs.writeFileSync(file, Array.from({ length: 2 * N }, (_, i) => `row ${label(i)} = old\n`).join(''));
  const servers = [0, 1].map((k) => new RawSession(['--root', root, '--approval', 'auto', '--no-fsync', '--log-level', 'off'], { label: `server-${k}` }));
  const outcomes = [];
  try {
    await Promise.all(servers.map((s) => s.initialize()));
    for (let i = 0; i < N; i++) {
      for (const [k, s] of servers.entries()) {
        const line = 2 * i + k;
        s.send(call(line + 1, 'edit', { file_path: 'shared.txt', old_string: `row ${label(line)} = old`, new_string: `row ${label(line)} = new` }));
      }
    }
    for (const [k, s] of servers.entries()) {
      for (let i = 0; i < N; i++) {
        const line = 2 * i + k;
        outcomes.push({ line, r: await s.response(line + 1, { timeout: 120000 }) });
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
  const after = fs.readFileSync(file, 'utf8').split('\n');
  const lost = outcomes.filter(({ line, r }) => ok(r) && after[line] !== `row ${label(line)} = new`);
  assert.deepEqual(lost.map((o) => o.line), [], `${lost.length} edits reported success but are not on disk`);
  // A refusal is allowed (the file kept changing through 64 merges: seen once in 1,000 under
  // ASan's slowness, never in a plain build), but it must be honest: nothing written, and said so.
  const refused = outcomes.filter(({ r }) => !ok(r));
  for (const { line, r } of refused) {
    assert.match(textOf(r.result), /Nothing was written/, `refusal of line ${line} must say nothing was written`);
    assert.equal(after[line], `row ${label(line)} = old`, `line ${line} was refused but changed on disk`);
  }
  assert.ok(refused.length <= 10, `${refused.length} of ${2 * N} edits were refused: ${refused.slice(0, 3).map(({ r }) => textOf(r.result).slice(0, 150)).join(' | ')}`);
  assert.equal(after.length, 2 * N + 1, 'the file has lost or gained lines');
});

test('temp files a killed server left are removed at the next write in their folder; a live one, a backup and users\' look-alikes stay', async () => {
  const root = makeTempDir();
  fs.writeFileSync(path.join(root, 'x.txt'), 'one\n');
  const stale = path.join(root, '.mcp-edit-stage-0123456789abcdef');
  const live = path.join(root, '.mcp-edit-stage-fedcba9876543210');
  const backup = path.join(root, '.mcp-edit-backup-0123456789abcdef');
  // Users' files the sweep used to remove (issue 39): they only look like a temp file of ours.
  const users = ['.notes.mcp-edit-abcdefghij', '.thesis.tex.mcp-edit-draft00001'].map((n) => path.join(root, n));
  fs.writeFileSync(stale, 'a full copy left by a killed server\n');
  fs.writeFileSync(live, 'being written by a live server\n');
  fs.writeFileSync(backup, 'a backup is kept for recovery\n');
  for (const user of users) fs.writeFileSync(user, 'the user\'s own\n');
  // A live server holds a lock on its temp file: `flock -s` stands in for it.
  const holder = spawn('flock', ['-s', live, 'sleep', '30'], { stdio: 'ignore' });
  await sleep(200);
  const s = new RawSession(['--root', root, '--approval', 'auto', '--log-level', 'off'], { label: 'stale-temps' });
  try {
    await s.initialize();
    const r = await s.request(1, 'tools/call', { name: 'edit', arguments: { file_path: 'x.txt', old_string: 'one', new_string: 'two' } });
    assert.ok(ok(r), `edit failed: ${show(r).slice(0, 400)}`);
  } finally {
    holder.kill('SIGKILL');
    await s.close();
  }
  assert.ok(!fs.existsSync(stale), 'the stale temp file is still there');
  assert.ok(fs.existsSync(live), 'a live server\'s temp file was removed');
  assert.ok(fs.existsSync(backup), 'an in-place backup was removed');
  for (const user of users) assert.ok(fs.existsSync(user), `the user's ${path.basename(user)} was removed`);
});

test('--history-dir: a server killed right after replying has every reported change in its journal', async () => {
  const root = makeTempDir();
  const history = makeTempDir('mcp-edit-e2e-history-');
  const file = path.join(root, 'big.txt');
  const lines = Array.from({ length: 25000 }, (_, i) => `line ${i} ${'x'.repeat(30)}`);  // ~1 MB
  const original = lines.join('\n') + '\n';
  fs.writeFileSync(file, original);
  const N = 12;
  const args = ['--root', root, '--approval', 'auto', '--history-dir', history, '--log-level', 'off'];
  const start = async (s) => {  // the journal is replayed before the first reply: allow for it
    const r = await s.request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } }, { timeout: 60000 });
    assert.ok(r.result, show(r));
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  for (let i = 0; i < N; i++) {
    const s = new RawSession(args, { label: `killed-${i}` });
    await start(s);
    const r = await s.request(1, 'tools/call', { name: 'edit', arguments: { file_path: 'big.txt', old_string: `line ${i * 1000} `, new_string: `LINE ${i * 1000} ` } });
    s.kill();  // at once, as a host that is closed would
    await s.exited;
    assert.ok(ok(r), `edit ${i}: ${show(r).slice(0, 300)}`);
  }
  const s = new RawSession(args, { label: 'after-kills' });
  try {
    await start(s);
    for (let i = 0; i < N; i++) {
      const r = await s.request(100 + i, 'tools/call', { name: 'undo', arguments: { file_path: 'big.txt' } }, { timeout: 30000 });
      assert.ok(ok(r), `undo ${i + 1} of ${N} after the kills: ${textOf(r.result).slice(0, 300)}`);
    }
  } finally {
    await s.close();
  }
  assert.ok(fs.readFileSync(file, 'utf8') === original, 'after every undo the file is as it was');
});

test('a read-only file (mode 0444) is not rewritten through a rename, even by root; nor removed', async () => {
  const root = makeTempDir();
  const file = path.join(root, 'locked.txt');
  fs.writeFileSync(file, 'one\ntwo\n');
  fs.chmodSync(file, 0o444);
  const s = new RawSession(['--root', root, '--approval', 'auto', '--log-level', 'off'], { label: 'read-only' });
  try {
    await s.initialize();
    const r = await s.request(1, 'tools/call', { name: 'edit', arguments: { file_path: 'locked.txt', old_string: 'two', new_string: 'TWO' } });
    assert.ok(r.result?.isError, `the edit must be refused: ${show(r).slice(0, 300)}`);
    assert.match(textOf(r.result), /locked\.txt is not writable: it is read-only \(mode 0444\)/);
    assert.equal(r.result._meta?.['io.github.mcp-edit/reason'], 'not_writable');
    await s.request(2, 'tools/call', { name: 'read', arguments: { file_path: 'locked.txt' } });
    const d = await s.request(3, 'tools/call', { name: 'apply_diff', arguments: { diff: '*** Begin Patch\n*** Delete File: locked.txt\n*** End Patch\n' } });
    assert.ok(d.result?.isError, `the deletion must be refused: ${show(d).slice(0, 300)}`);
    assert.match(textOf(d.result), /not writable.*not removed/s);
  } finally {
    await s.close();
  }
  assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n');
  assert.equal(fs.statSync(file).mode & 0o777, 0o444);
});
