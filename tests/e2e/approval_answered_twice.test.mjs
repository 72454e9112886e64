// An approval form answered twice (legacy era, --approval require): the first answer to an
// elicitation id decides, any later answer to that id is ignored and logged. Found by an attack:
// `decline` then `accept`/apply written in one write let the second answer overturn the first
// before the waiting call looked. Every ordered pair of different answers, sent in one chunk
// (one write, two lines) and apart (the second after the call was answered); then a next edit
// shows that an ignored "apply_session" granted nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  RawSession, assertNoProblems, makeTempDir, requireBinary, show, sleep, ORIGINAL, EDITED,
} from './helpers.mjs';

requireBinary();

// Every answer a client can give to the form, and what it means when it is the one that decides.
const ANSWERS = {
  apply: { reply: { result: { action: 'accept', content: { decision: 'apply' } } }, writes: 'user' },
  apply_session: { reply: { result: { action: 'accept', content: { decision: 'apply_session' } } }, writes: 'session' },
  reject: { reply: { result: { action: 'accept', content: { decision: 'reject' } } }, writes: null },
  decline: { reply: { result: { action: 'decline' } }, writes: null },
  cancel: { reply: { result: { action: 'cancel' } }, writes: null },
  error: { reply: { error: { code: -32603, message: 'the host could not render the form' } }, writes: null },
};
const NAMES = Object.keys(ANSWERS);
const PAIRS = NAMES.flatMap((first) => NAMES.filter((second) => second !== first).map((second) => [first, second]));

const textOf = (r) => (r?.content ?? []).filter((c) => c?.type === 'text').map((c) => c.text).join('\n');
const isElicit = (m) => m?.method === 'elicitation/create' && 'id' in m;
const callLine = (id, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'edit', arguments: args } });
const answerLine = (id, name) => ({ jsonrpc: '2.0', id, ...ANSWERS[name].reply });

/** Both lines in one write to the server's stdin, so they arrive in one read. */
function sendChunk(s, messages) {
  const lines = messages.map((m) => JSON.stringify(m));
  for (const line of lines) s.validator.clientLine(line);
  s.child.stdin.write(lines.join('\n') + '\n');
}

async function answeredTwice(first, second, together) {
  const dir = makeTempDir();
  const file = path.join(dir, 'target.txt');
  fs.writeFileSync(file, ORIGINAL);
  const label = `${first} then ${second} ${together ? 'in one chunk' : 'apart'}`;
  const s = new RawSession(['--root', dir, '--no-fsync', '--approval', 'require'], { label });
  try {
    await s.initialize('2025-11-25', { elicitation: {} });
    s.send(callLine(1, { file_path: file, old_string: 'two', new_string: 'TWO' }));
    const ask = await s.next(isElicit, { what: `${label}: the elicitation/create` });
    if (together) {
      sendChunk(s, [answerLine(ask.id, first), answerLine(ask.id, second)]);
    } else {
      s.send(answerLine(ask.id, first));
    }
    const r = (await s.response(1)).result;
    if (!together) s.send(answerLine(ask.id, second));
    assert.deepEqual((await s.request(2, 'ping')).result, {}, `${label}: ping after both answers`);
    await sleep(50);  // deliberate: a window in which a write the second answer wrongly caused would land

    const decided = ANSWERS[first].writes;
    if (decided) {
      assert.notEqual(r?.isError, true, `${label}: the first answer (${first}) decides: written; got ${show(r).slice(0, 500)}`);
      assert.equal(r.structuredContent?.approval, decided, `${label}: approval ${show(r.structuredContent?.approval)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), EDITED, `${label}: the file must hold the change`);
    } else {
      assert.equal(r?.isError, true, `${label}: the first answer (${first}) decides: refused; got ${show(r).slice(0, 500)}`);
      assert.match(textOf(r), /nothing (was )?written/i, `${label}: ${show(textOf(r))}`);
      assert.equal(fs.readFileSync(file, 'utf8'), ORIGINAL, `${label}: nothing may be written`);
    }
    const extra = s.unconsumed().filter((m) => m && 'id' in m && !('method' in m));
    assert.deepEqual(extra, [], `${label}: no further response`);

    // The next change: asked again unless the first answer was apply_session (an ignored
    // apply_session grants nothing).
    s.send(callLine(3, { file_path: file, old_string: 'three', new_string: 'THREE' }));
    const next = await s.next((m) => isElicit(m) || m?.id === 3, { what: `${label}: the next edit's form or reply` });
    if (first === 'apply_session') {
      assert.ok(!isElicit(next), `${label}: after apply_session the next edit is not asked: ${show(next).slice(0, 300)}`);
      assert.equal(next.result?.structuredContent?.approval, 'session', `${label}: ${show(next).slice(0, 300)}`);
    } else {
      assert.ok(isElicit(next), `${label}: the next edit must be asked (the ignored ${second} grants nothing): ${show(next).slice(0, 300)}`);
      s.send(answerLine(next.id, 'decline'));
      assert.equal((await s.response(3)).result?.isError, true, `${label}: the next edit declined`);
    }
    if (together) {
      await s.close();
      assert.match(s.stderr.text, /ignoring a second response to request \d+: the first answer to it decides/,
        `${label}: the ignored answer is logged; stderr: ${s.stderr.text.slice(-800)}`);
    }
  } finally {
    await s.close();
  }
  assertNoProblems(s.validator.problems, label);
}

describe('an approval form answered twice: the first answer decides', { concurrency: 6 }, () => {
  for (const together of [true, false]) {
    for (const [first, second] of PAIRS) {
      test(`${first} then ${second}, ${together ? 'in one chunk' : 'apart'}`, () => answeredTwice(first, second, together));
    }
  }
});
