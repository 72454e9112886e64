// A `read` must not wait behind an open approval form of the same file (legacy era, raw lines):
// reads change nothing, so while a change waits for the human, a read of its file is answered at
// once from the bytes on disk; the change itself is written only once it is approved. A second
// change of the same file still waits its turn.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  RawSession, assertNoProblems, makeTempDir, requireBinary, show, sleep,
} from './helpers.mjs';

requireBinary();
const isElicit = (m) => m?.method === 'elicitation/create' && 'id' in m;
const call = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

test('a read while a legacy approval form is open returns at once with the old content', async () => {
  const dir = makeTempDir();
  const file = path.join(dir, 'target.txt');
  fs.writeFileSync(file, 'one\ntwo\nthree\n');
  const s = new RawSession(['--root', dir, '--no-fsync', '--approval', 'require'], { label: 'read during approval' });
  try {
    await s.initialize('2025-11-25', { elicitation: {} });
    s.send(call(1, 'edit', { file_path: file, old_string: 'two', new_string: 'TWO' }));
    const ask = await s.next(isElicit, { what: 'the elicitation/create of the edit' });

    const started = Date.now();
    const read = await s.request(2, 'tools/call', { name: 'read', arguments: { file_path: file } }, { timeout: 1500 });
    const took = Date.now() - started;
    assert.notEqual(read.result?.isError, true, `read while the form is open: ${show(read).slice(0, 400)}`);
    assert.equal(read.result.structuredContent.text, '     1\tone\n     2\ttwo\n     3\tthree',
      `the read shows the bytes on disk (the change is not approved yet): ${show(read.result.structuredContent.text)}`);
    assert.ok(took < 1000, `the read must not wait for the human: it took ${took} ms`);

    // A second change of the same file still queues behind the first.
    s.send(call(3, 'edit', { file_path: file, old_string: 'three', new_string: 'THREE' }));
    await sleep(300);  // deliberate: a window in which a second edit that did not queue would ask or answer
    const early = s.unconsumed().filter((m) => isElicit(m) || m?.id === 3);
    assert.deepEqual(early, [], `the second edit must wait for the first's approval: ${show(early).slice(0, 300)}`);

    s.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { decision: 'apply' } } });
    const first = await s.response(1);
    assert.notEqual(first.result?.isError, true, `the approved edit: ${show(first).slice(0, 400)}`);
    const ask2 = await s.next(isElicit, { what: 'the second edit\'s form' });
    // A read now sees the first change (approved and written) while the second form is open.
    const read2 = await s.request(4, 'tools/call', { name: 'read', arguments: { file_path: file } }, { timeout: 1500 });
    assert.equal(read2.result?.structuredContent?.text, '     1\tone\n     2\tTWO\n     3\tthree', `second read: ${show(read2).slice(0, 400)}`);
    s.send({ jsonrpc: '2.0', id: ask2.id, result: { action: 'accept', content: { decision: 'apply' } } });
    const second = await s.response(3);
    assert.notEqual(second.result?.isError, true, `the second edit: ${show(second).slice(0, 400)}`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\nTHREE\n');
  } finally {
    await s.close();
  }
  assertNoProblems(s.validator.problems, 'read during approval');
});
