// The lost-update invariant: N edits to N different lines of one file, all
// written to stdin before any reply is read, leave all N changes on disk and N success replies.
// Also: different files in flight at once all succeed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { RawSession, makeTempDir } from './helpers.mjs';

const N = 500;
const label = (i) => String(i).padStart(4, '0');

test(`${N} concurrent edits to one file: all ${N} survive`, async () => {
  const root = makeTempDir();
  const file = path.join(root, 'shared.txt');
  const original = Array.from({ length: N }, (_, i) => `row ${label(i)} = old\n`).join('');
  fs.writeFileSync(file, original);
  const s = new RawSession(['--root', root, '--no-fsync', '--log-level', 'off'], { label: 'concurrency' });
  try {
    await s.initialize();
    // Every request goes out before a single reply is awaited.
    for (let i = 0; i < N; i++) {
      s.send({ jsonrpc: '2.0', id: 1000 + i, method: 'tools/call', params: { name: 'edit', arguments: {
        file_path: 'shared.txt', old_string: `row ${label(i)} = old`, new_string: `row ${label(i)} = new` } } });
    }
    let ok = 0;
    const failures = [];
    for (let i = 0; i < N; i++) {
      const r = await s.response(1000 + i, { timeout: 60000 });
      if (r.result && !r.result.isError && r.result.structuredContent?.replacements === 1) ok++;
      else failures.push(`id ${1000 + i}: ${JSON.stringify(r).slice(0, 300)}`);
    }
    assert.equal(ok, N, `only ${ok} of ${N} edits reported success:\n${failures.slice(0, 5).join('\n')}`);
    const after = fs.readFileSync(file, 'utf8');
    const expected = Array.from({ length: N }, (_, i) => `row ${label(i)} = new\n`).join('');
    const survivors = after.split('\n').filter((l) => l.endsWith('= new')).length;
    assert.equal(survivors, N, `only ${survivors} of ${N} changes are on disk`);
    assert.equal(after, expected, 'the file differs from the expected result beyond the edited lines');
    const leftovers = fs.readdirSync(root).filter((f) => f !== 'shared.txt');
    assert.deepEqual(leftovers, [], `temp files left behind: ${leftovers.join(', ')}`);
  } finally {
    await s.close();
  }
});

test('edits to 50 different files in flight at once all succeed', async () => {
  const root = makeTempDir();
  const files = 50;
  for (let f = 0; f < files; f++) fs.writeFileSync(path.join(root, `f${f}.txt`), `file ${f}\r\nkeep\r\n`);
  const s = new RawSession(['--root', root, '--no-fsync', '--log-level', 'off'], { label: 'many-files' });
  try {
    await s.initialize();
    for (let f = 0; f < files; f++) {
      s.send({ jsonrpc: '2.0', id: f + 1, method: 'tools/call', params: { name: 'edit', arguments: {
        file_path: `f${f}.txt`, old_string: `file ${f}`, new_string: `file ${f} edited` } } });
    }
    for (let f = 0; f < files; f++) {
      const r = await s.response(f + 1, { timeout: 30000 });
      assert.ok(r.result && !r.result.isError, `edit of f${f}.txt failed: ${JSON.stringify(r).slice(0, 300)}`);
    }
    for (let f = 0; f < files; f++) {
      assert.equal(fs.readFileSync(path.join(root, `f${f}.txt`), 'latin1'), `file ${f} edited\r\nkeep\r\n`);
    }
  } finally {
    await s.close();
  }
});
