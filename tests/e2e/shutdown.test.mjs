// Shutdown: stdin EOF or SIGTERM stops reading, finishes
// in-flight work, and exits 0 promptly — also while an approval form waits (nothing is written then).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { RawSession, makeTempDir } from './helpers.mjs';

async function pendingApproval(root) {
  fs.writeFileSync(path.join(root, 'f.txt'), 'hello\n');
  const s = new RawSession(['--root', root, '--no-fsync'], { label: 'shutdown' });
  await s.initialize('2025-11-25', { elicitation: {} });
  s.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'edit', arguments: { file_path: 'f.txt', old_string: 'hello', new_string: 'bye' } } });
  await s.next((m) => m.method === 'elicitation/create', { what: 'the approval request' });
  return s;
}

test('stdin EOF while an approval waits: exit 0 at once, nothing written', async () => {
  const root = makeTempDir();
  const s = await pendingApproval(root);
  const started = Date.now();
  const exit = await s.close(5000);
  assert.deepEqual(exit, { code: 0, signal: null }, `exit: ${JSON.stringify(exit)}`);
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms to exit`);
  assert.equal(fs.readFileSync(path.join(root, 'f.txt'), 'utf8'), 'hello\n');
});

test('SIGTERM while an approval waits: exit 0 at once, nothing written', async () => {
  const root = makeTempDir();
  const s = await pendingApproval(root);
  const started = Date.now();
  s.child.kill('SIGTERM');
  const exit = await s.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, `exit: ${JSON.stringify(exit)}`);
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms to exit`);
  assert.equal(fs.readFileSync(path.join(root, 'f.txt'), 'utf8'), 'hello\n');
});

test('EOF right after a burst of edits: every edit is finished and answered before exit', async () => {
  const root = makeTempDir();
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i} old\n`).join('');
  fs.writeFileSync(path.join(root, 'g.txt'), lines);
  const s = new RawSession(['--root', root, '--no-fsync', '--log-level', 'off'], { label: 'eof-burst' });
  await s.initialize();
  for (let i = 0; i < 50; i++) {
    s.send({ jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: 'edit', arguments: { file_path: 'g.txt', old_string: `line ${i} old`, new_string: `line ${i} new` } } });
  }
  const exit = await s.close(10000);
  assert.deepEqual(exit, { code: 0, signal: null });
  const answered = s.messages.filter((m) => m.msg && m.msg.id >= 10 && m.msg.result && !m.msg.result.isError).length;
  assert.equal(answered, 50, `${answered} of 50 edits answered before exit`);
  assert.equal(fs.readFileSync(path.join(root, 'g.txt'), 'utf8'), lines.replaceAll(' old', ' new'));
});
