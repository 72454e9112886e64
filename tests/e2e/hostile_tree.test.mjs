// The tree as a hostile neighbour process leaves it: a folder inside the root swapped for a symlink
// to outside while writes run or while the approval form is open; a hard link inside the root to a
// file outside; two servers editing one file; temp files a killed server left behind. Each case
// checks the bytes on disk outside the root as well as the replies.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { Worker } from 'node:worker_threads';
import { RawSession, makeTempDir, pollUntil, show, textOf } from './helpers.mjs';

const call = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const ok = (r) => r.result && !r.result.isError;
const filesUnder = (dir) => fs.readdirSync(dir, { recursive: true }).map(String);

// A worker thread that flips `name` between a folder and a symlink to `outside` with atomic
// renames until told to stop. `swaps()` counts the flips done so far (shared memory, so the
// count can be read while the test's event loop waits for replies); `stop()` ends the worker.
function startSwapper(root, name, outside) {
  const shared = new Int32Array(new SharedArrayBuffer(8));  // [0]: flips done, [1]: stop
  const worker = new Worker(`
    const fs = require('fs'); const path = require('path');
    const { workerData: { root, name, outside, shared } } = require('worker_threads');
    const real = path.join(root, name), hold = path.join(root, name + '.hold'), link = path.join(root, name + '.link');
    try { fs.symlinkSync(outside, link); } catch {}
    const flip = (from, to) => { try { fs.renameSync(from, to); Atomics.add(shared, 0, 1); } catch {} };
    // Each state lasts a random while (the symlink up to half a millisecond, the folder up to
    // two, as most edits are refused otherwise), so requests meet each of them.
    const dwell = (ms) => Atomics.wait(shared, 1, 0, Math.random() * ms);
    while (Atomics.load(shared, 1) === 0) {
      flip(real, hold); flip(link, real);  // now a symlink to outside
      dwell(0.5);
      flip(real, link); flip(hold, real);  // now the folder again
      dwell(2);
    }`, { eval: true, workerData: { root, name, outside, shared } });
  const ended = new Promise((resolve) => worker.on('exit', resolve));
  return {
    swaps: () => Atomics.load(shared, 0),
    stop: async () => { Atomics.store(shared, 1, 1); await ended; },
  };
}

// What an edit under a folder being swapped can get: written; refused because the path led out
// of the root when resolved; refused because it changed between the check and the open, or
// between the read and the write (the race itself, caught); or not found (the folder was renamed
// away at that moment).
const SWAP_OUTCOMES = [
  ['written', (r) => ok(r)],
  ['outside the roots', (r) => /is outside the allowed roots/.test(textOf(r.result))],
  ['changed after it was checked', (r) => /changed after it was checked/.test(textOf(r.result))],
  ['replaced while prepared', (r) => /was removed or replaced by another program while this change was being prepared/.test(textOf(r.result))],
  ['not found', (r) => /No such file or directory|does not exist|not found/i.test(textOf(r.result))],
];
const swapOutcome = (r) => SWAP_OUTCOMES.find(([, is]) => is(r))?.[0] ?? `other: ${textOf(r.result).slice(0, 200) || show(r).slice(0, 200)}`;

test('a folder swapped for a symlink to outside during 1,500 edits and reads: nothing outside the root is written or read', async () => {
  const root = makeTempDir();
  const outside = makeTempDir('mcp-edit-outside-');
  const N = 1500;
  // The same names inside and outside: an edit that followed the symlink would change a file
  // outside, a read that did would return OUTSIDE.
  fs.mkdirSync(path.join(root, 'real'));
  for (const [dir, secret] of [[path.join(root, 'real'), 'inside\n'], [outside, 'OUTSIDE SECRET\n']]) {
    fs.writeFileSync(path.join(dir, 'secret.txt'), secret);
    for (let i = 0; i < N; i++) fs.writeFileSync(path.join(dir, `f${i}.txt`), `file ${i}\n`);
  }
  const swapper = startSwapper(root, 'real', outside);
  const s = new RawSession(['--root', root, '--approval', 'auto', '--no-fsync', '--log-level', 'off'], { label: 'swap-edits' });
  const outcomes = new Map();
  const count = (k) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  const written = [];
  const leakedReads = [];
  let flips;
  try {
    await s.initialize();
    await pollUntil(() => swapper.swaps() >= 100, { what: 'the swapper to flip the folder 100 times' });
    const swapsBefore = swapper.swaps();
    // 15 rounds of 100 edits and reads, all in flight; between rounds the folder flips again, so
    // however the threads are scheduled, rounds start in different states.
    for (let round = 0; round < 15; round++) {
      const from = round * 100;
      for (let i = from; i < from + 100; i++) {
        s.send(call(2 * i + 1, 'edit', { file_path: `real/f${i}.txt`, old_string: `file ${i}`, new_string: `EDITED ${i}` }));
        s.send(call(2 * i + 2, 'read', { file_path: 'real/secret.txt' }));
      }
      for (let i = from; i < from + 100; i++) {
        const kind = swapOutcome(await s.response(2 * i + 1, { timeout: 60000 }));
        count(kind);
        if (kind === 'written') written.push(i);
        if (JSON.stringify(await s.response(2 * i + 2, { timeout: 60000 })).includes('OUTSIDE SECRET')) leakedReads.push(2 * i + 2);
      }
      const at = swapper.swaps();
      await pollUntil(() => swapper.swaps() >= at + 3 + Math.floor(Math.random() * 4), { what: 'the swapper to flip again' });
    }
    flips = swapper.swaps() - swapsBefore;
  } finally {
    await swapper.stop();
    await s.close();
  }
  const seen = show(Object.fromEntries(outcomes));
  console.log(`# ${flips} flips while the requests were in flight; outcomes of the edits: ${seen}`);
  assert.deepEqual(leakedReads, [], `${leakedReads.length} reads returned the file outside the root`);
  const changedOutside = filesUnder(outside).filter((f) => !/^(secret|f\d+)\.txt$/.test(f)
    || fs.readFileSync(path.join(outside, f), 'utf8') !== (f === 'secret.txt' ? 'OUTSIDE SECRET\n' : `file ${f.slice(1, -4)}\n`));
  assert.deepEqual(changedOutside, [], `${changedOutside.length} files outside the root were created or changed`);
  // The race was exercised: the folder flipped all along, and the edits met both of its states
  // (some written inside, some refused as leading out of the root).
  assert.ok(flips >= 100, `only ${flips} flips happened while the requests were in flight`);
  const others = [...outcomes.keys()].filter((k) => k.startsWith('other'));
  assert.deepEqual(others, [], `edits ended in ways not expected here: ${seen}`);
  assert.ok(outcomes.get('written') > 0, `no edit succeeded: the folder was never seen as itself (${seen})`);
  assert.ok(outcomes.get('outside the roots') > 0, `no edit was refused as leading outside the roots: the symlink was never seen (${seen})`);
  // And some edits were caught in the race itself: the folder flipped between the server's check
  // of the path and its open (or between its read and its write).
  const caught = (outcomes.get('changed after it was checked') ?? 0) + (outcomes.get('replaced while prepared') ?? 0);
  assert.ok(caught > 0, `no edit met a flip between the check and the open: the race was not exercised (${seen})`);
  // Every edit reported written is on disk inside the root, and no other.
  const real = path.join(root, fs.existsSync(path.join(root, 'real.hold')) ? 'real.hold' : 'real');
  const editedInside = [];
  for (let i = 0; i < N; i++) if (fs.readFileSync(path.join(real, `f${i}.txt`), 'utf8') === `EDITED ${i}\n`) editedInside.push(i);
  assert.deepEqual(editedInside, written, 'the edits on disk inside the root differ from those reported written');
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

// Four servers on one tree, each editing every fourth line of one file, all requests in flight.
test('four servers × 250 edits of interleaved lines of one file: each edit is on disk or refused for its one reason', async () => {
  const root = makeTempDir();
  const N = 250;
  const K = 4;
  const label = (i) => String(i).padStart(4, '0');
  const file = path.join(root, 'shared.txt');
  fs.writeFileSync(file, Array.from({ length: K * N }, (_, i) => `row ${label(i)} = old\n`).join(''));
  const servers = Array.from({ length: K }, (_, k) => new RawSession(['--root', root, '--approval', 'auto', '--no-fsync', '--log-level', 'off'], { label: `server-${k}` }));
  const outcomes = [];
  try {
    await Promise.all(servers.map((s) => s.initialize()));
    for (let i = 0; i < N; i++) {
      for (const [k, s] of servers.entries()) {
        const line = K * i + k;
        s.send(call(line + 1, 'edit', { file_path: 'shared.txt', old_string: `row ${label(line)} = old`, new_string: `row ${label(line)} = new` }));
      }
    }
    for (const [k, s] of servers.entries()) {
      for (let i = 0; i < N; i++) {
        const line = K * i + k;
        outcomes.push({ line, r: await s.response(line + 1, { timeout: 120000 }) });
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
  // Each edit did exactly one of two things: written (its line is new on disk) or refused with
  // the one honest reason a refusal may have here; the file's other bytes are untouched.
  // A lost update (reported written, old on disk) is what a missing folder lock gives; refusals
  // for a file that changed are what a missing merge gives, hundreds of them.
  const after = fs.readFileSync(file, 'utf8').split('\n');
  assert.equal(after.length, K * N + 1, 'the file has lost or gained lines');
  const problems = [];
  const reasons = new Map();
  for (const { line, r } of outcomes.sort((a, b) => a.line - b.line)) {
    const onDisk = after[line];
    if (ok(r)) {
      if (onDisk !== `row ${label(line)} = new`) problems.push(`line ${line}: the edit reported success but the line on disk is ${show(onDisk)} (a lost update)`);
      continue;
    }
    const text = textOf(r.result) || show(r.error ?? r).slice(0, 300);
    const reason = text.split('\n')[0].replace(/\d+/g, 'N').slice(0, 200);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    if (onDisk !== `row ${label(line)} = old`) problems.push(`line ${line}: refused (${show(text.slice(0, 150))}) but the line on disk is ${show(onDisk)}`);
    if (!/Nothing was written/.test(text)) problems.push(`line ${line}: the refusal does not say nothing was written: ${show(text.slice(0, 300))}`);
  }
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} of ${K * N} edits did not do what they reported`);
  // A refusal is allowed only when shared.txt kept changing through the 64 merges a call may make
  // (seen once in 1,000 under ASan's slowness, never in a plain build), and only a few.
  const refused = [...reasons.values()].reduce((a, b) => a + b, 0);
  const allowed = (reason) => /^Nothing was written: shared\.txt changed on disk while this change was being prepared/.test(reason);
  const unexpected = [...reasons.keys()].filter((k) => !allowed(k));
  assert.deepEqual(unexpected, [], `refusals for reasons other than the file changing on disk: ${show(Object.fromEntries(reasons))}`);
  assert.ok(refused <= 10, `${refused} of ${K * N} edits were refused (the merge should have taken them): ${show(Object.fromEntries(reasons))}`);
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
  // Held once an exclusive lock can no longer be had (flock -n fails at once then).
  await pollUntil(() => spawnSync('flock', ['-n', '-x', live, 'true']).status === 1, { what: `flock -s to hold ${live}` });
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
