// The folder lock under attack (issue 39, items 10 and 11): another process holds the lock of a
// folder an edit writes in. The server keeps answering (ping, reads, writes elsewhere) while the
// edit waits, a cancelled waiting edit writes nothing once the lock is freed, and a process that
// can merely read a folder (an flock on the folder itself) cannot stall writes there at all.
// The holder is util-linux's `flock`, the tool a user or a script would use.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { RawSession, makeTempDir, pollUntil, show, sleep } from './helpers.mjs';

const call = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const ok = (r) => r.result && !r.result.isError;

// Holds an exclusive flock on each of `targets` (nested `flock` processes, in a process group of
// their own) until release(); resolves once all are held.
async function holdLocks(targets) {
  const args = [];
  for (const target of targets) args.push('flock', '-x', target);
  args.push('sh', '-c', 'echo held; exec sleep 120');
  const child = spawn(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { if (String(d).includes('held')) resolve(); });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`flock exited (${code}) before holding the lock`)));
  });
  return {
    pid: child.pid,
    release() {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    },
  };
}

// Milliseconds a request takes to be answered.
async function timed(s, id, method, params) {
  const started = process.hrtime.bigint();
  const r = await s.request(id, method, params, { timeout: 35000 });
  return { r, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

test('a folder lock held by another process: ping, reads and writes elsewhere answer at once while an edit waits; the cancelled edit writes nothing after the lock is freed', async (t) => {
  const root = makeTempDir();
  fs.mkdirSync(path.join(root, 'locked'));
  fs.mkdirSync(path.join(root, 'other'));
  const waiting = path.join(root, 'locked', 'a.txt');
  fs.writeFileSync(waiting, 'one\ntwo\n');
  fs.writeFileSync(path.join(root, 'locked', 'b.txt'), 'beside\n');
  fs.writeFileSync(path.join(root, 'other', 'c.txt'), 'elsewhere\n');
  // Warnings on: the server says when an edit has waited a second for a folder lock.
  const s = new RawSession(['--root', root, '--approval', 'auto', '--no-fsync', '--log-level', 'warn'], { label: 'lock-wait' });
  // The lock as this server takes it (a file in the folder) and as earlier versions took it (the
  // folder itself): whichever the server waits for, it is held.
  const holder = await holdLocks([path.join(root, 'locked', '.mcp-edit-lock'), path.join(root, 'locked')]);
  try {
    await s.initialize();
    s.send(call(10, 'edit', { file_path: 'locked/a.txt', old_string: 'two', new_string: 'TWO' }));
    await pollUntil(() => /^\S+ warning edit: waiting for the lock of the folder /m.test(s.stderr.text),
      { what: () => `the server to log that the edit waits for the folder lock; stderr: ${s.stderr.text}` });
    const pings = [];
    for (let i = 0; i < 5; i++) {
      const { r, ms } = await timed(s, 20 + i, 'ping', {});
      assert.deepEqual(r.result, {}, show(r));
      pings.push(ms);
    }
    const read = await timed(s, 30, 'tools/call', { name: 'read', arguments: { file_path: 'other/c.txt' } });
    assert.ok(ok(read.r), show(read.r).slice(0, 300));
    // A read of another file in the locked folder. (A read of the file the edit waits to write
    // waits for it: a read sent after a change sees that change.)
    const beside = await timed(s, 31, 'tools/call', { name: 'read', arguments: { file_path: 'locked/b.txt' } });
    assert.ok(ok(beside.r), show(beside.r).slice(0, 300));
    const elsewhere = await timed(s, 33, 'tools/call', { name: 'edit', arguments: { file_path: 'other/c.txt', old_string: 'elsewhere', new_string: 'changed' } });
    assert.ok(ok(elsewhere.r), show(elsewhere.r).slice(0, 300));
    const worst = Math.max(...pings);
    t.diagnostic(`while an edit waited for a held folder lock: ping ${pings.map((ms) => ms.toFixed(1)).join(', ')} ms; ` +
      `read elsewhere ${read.ms.toFixed(1)} ms, read beside ${beside.ms.toFixed(1)} ms, ` +
      `edit elsewhere ${elsewhere.ms.toFixed(1)} ms`);
    // 100 ms is the goal (measured: about 1 ms); 2 s keeps a loaded machine from failing the test.
    for (const [what, ms] of [['ping', worst], ['read elsewhere', read.ms], ['read beside', beside.ms],
      ['edit elsewhere', elsewhere.ms]])
      assert.ok(ms < 2000, `${what} took ${ms.toFixed(0)} ms while an edit waited for a folder lock`);

    // Cancelled while it waits; then the lock comes free: nothing is written, and no reply comes.
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 10, reason: 'the user pressed stop' } });
    await s.request(35, 'ping');  // the cancel has been read (messages are read in order)
    holder.release();
    // Deliberate: a window in which an edit that ignored its cancel would take the freed lock and
    // write (the server retries a held lock every few tens of milliseconds).
    await sleep(700);
    assert.equal(fs.readFileSync(waiting, 'utf8'), 'one\ntwo\n', 'the cancelled edit was written once the lock was freed');
    const replies = s.messages.filter((m) => m.msg && m.msg.id === 10);
    assert.deepEqual(replies.map((m) => m.raw), [], 'a cancelled request gets no response');
    // The folder is free again: the same edit, not cancelled, is written.
    const again = await s.request(40, 'tools/call', { name: 'edit', arguments: { file_path: 'locked/a.txt', old_string: 'two', new_string: 'TWO' } });
    assert.ok(ok(again), show(again).slice(0, 300));
    assert.equal(fs.readFileSync(waiting, 'utf8'), 'one\nTWO\n');
  } finally {
    holder.release();
    await s.close();
  }
  assert.deepEqual(fs.readdirSync(path.join(root, 'locked')).sort(), ['a.txt', 'b.txt'], 'a temp or lock file was left behind');
});

test('a process that can only read a folder (an flock on the folder itself) does not stall writes there', async (t) => {
  const root = makeTempDir();
  const file = path.join(root, 'a.txt');
  fs.writeFileSync(file, 'one\n');
  const s = new RawSession(['--root', root, '--approval', 'auto', '--no-fsync', '--log-level', 'off'], { label: 'reader-lock' });
  const holder = await holdLocks([root]);
  try {
    await s.initialize();
    const { r, ms } = await timed(s, 1, 'tools/call', { name: 'edit', arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } });
    t.diagnostic(`edit with the folder itself flocked by another process: ${ms.toFixed(1)} ms`);
    assert.ok(ok(r), show(r).slice(0, 300));
    assert.ok(ms < 2000, `the edit took ${ms.toFixed(0)} ms`);
  } finally {
    holder.release();
    await s.close();
  }
  assert.equal(fs.readFileSync(file, 'utf8'), 'two\n');
});
