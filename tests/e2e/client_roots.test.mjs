// What real hosts do with roots and configuration (issue 9), driven line by line: clients that
// send their working directory as the root (Gemini CLI, opencode, Qwen Code), concurrent first
// calls (one roots/list), notifications/roots/list_changed, a server started without --root, and
// a --root that does not exist (served, with the problem in instructions and every tool result).
// Every line the server writes is validated against the negotiated schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  SERVED_TOOLS, RawSession, assertNoProblems, makeTempDir, modernMeta, pollUntil, requireBinary, show, withRawSession,
} from './helpers.mjs';

requireBinary();
const ROOTS_CAPS = { roots: { listChanged: true } };
const uri = (dir) => `file://${dir.split('/').map(encodeURIComponent).join('/')}`;

/** A fresh directory holding `files` (name -> text). */
function dirWith(files, prefix) {
  const dir = makeTempDir(prefix);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** Runs `body(session)` against a fresh server; checks every line it wrote and exit 0 on EOF. */
const withServer = (label, args, body, { cwd } = {}) => withRawSession(label, args, body, { cwd, cleanExit: true });

const read = (s, id, filePath) =>
  s.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read', arguments: { file_path: filePath } } });
const isRootsList = (m) => m?.method === 'roots/list' && 'id' in m;
const answerRoots = (s, request, dirs) =>
  s.send({ jsonrpc: '2.0', id: request.id, result: { roots: dirs.map((d) => ({ uri: uri(d), name: path.basename(d) })) } });
const rootsListsSent = (s) => s.messages.filter((m) => isRootsList(m.msg)).length;
const textOf = (r) => r.result?.content?.[0]?.text ?? '';

async function assertReadOk(s, id, expectedText, label) {
  const r = await s.response(id);
  assert.ok(r.result && !r.result.isError, `${label}: expected success, got ${show(r).slice(0, 600)}`);
  assert.ok(textOf(r).startsWith(`     1\t${expectedText}`), `${label}: unexpected text ${show(textOf(r))}`);
  return r;
}

describe('one roots/list at a time', () => {
  test('three concurrent first calls send exactly one roots/list; list_changed makes the next call ask again', async () => {
    const root = dirWith({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'c.txt': 'gamma\n' });
    await withServer('single roots/list', ['--root', root, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', ROOTS_CAPS);
      read(s, 1, 'a.txt');
      read(s, 2, 'b.txt');
      read(s, 3, 'c.txt');
      const ask = await s.next(isRootsList, { what: 'a roots/list request' });
      // Deliberate: a window in which a second roots/list, if the calls did not share one, would come.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(rootsListsSent(s), 1, 'three calls in flight before the roots are known must share one roots/list');
      answerRoots(s, ask, [root]);
      await assertReadOk(s, 1, 'alpha', 'call 1');
      await assertReadOk(s, 2, 'beta', 'call 2');
      await assertReadOk(s, 3, 'gamma', 'call 3');

      read(s, 4, 'a.txt');
      await assertReadOk(s, 4, 'alpha', 'call 4 (roots cached)');
      assert.equal(rootsListsSent(s), 1, 'cached roots: no second roots/list');

      s.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
      read(s, 5, 'a.txt');
      const again = await s.next(isRootsList, { what: 'a roots/list after list_changed' });
      answerRoots(s, again, [root]);
      await assertReadOk(s, 5, 'alpha', 'call 5');
      assert.equal(rootsListsSent(s), 2);
    });
  });

  test('when the call that asked is cancelled, a waiting call asks anew and is answered', async () => {
    const root = dirWith({ 'a.txt': 'alpha\n' });
    await withServer('roots/list of a cancelled call', ['--root', root, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', ROOTS_CAPS);
      read(s, 1, 'a.txt');
      read(s, 2, 'a.txt');
      const first = await s.next(isRootsList, { what: 'the first roots/list' });
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user stopped it' } });
      const voided = await s.next((m) => m?.method === 'notifications/cancelled', { what: 'the server voiding its roots/list' });
      assert.deepEqual(voided.params.requestId, first.id);
      const second = await s.next(isRootsList, { what: 'a roots/list from the waiting call' });
      answerRoots(s, second, [root]);
      await assertReadOk(s, 2, 'alpha', 'the waiting call');
      await s.request(90, 'ping');  // anything sent before this reply has arrived
      assert.equal(s.messages.filter((m) => m.msg?.id === 1 && !('method' in m.msg)).length, 0, 'a cancelled call gets no reply');
    });
  });
  test('stdin ends while calls wait for an unanswered roots/list: exit 0 at once, no replies', async () => {
    const root = dirWith({ 'a.txt': 'alpha\n' });
    const s = new RawSession(['--root', root, '--no-fsync'], { label: 'EOF during roots/list' });
    await s.initialize('2025-11-25', ROOTS_CAPS);
    read(s, 1, 'a.txt');
    read(s, 2, 'a.txt');
    await s.next(isRootsList, { what: 'a roots/list request' });
    const started = Date.now();
    const exit = await s.close(5000);
    assert.deepEqual(exit, { code: 0, signal: null }, `exit: ${show(exit)}; stderr:\n${s.stderr.text.slice(-1000)}`);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms to exit`);
    assertNoProblems(s.validator.problems, 'EOF during roots/list');
    assert.equal(rootsListsSent(s), 1);
    const replies = s.messages.filter((m) => [1, 2].includes(m.msg?.id) && !('method' in m.msg));
    assert.deepEqual(replies.map((m) => m.raw), [], 'calls abandoned at EOF get no reply');
  });
});

describe('client roots and --root', () => {
  test('client roots inside --root narrow it; a path outside them is refused naming both sets', async () => {
    const root = dirWith({ 'top.txt': 'top\n' });
    const sub = path.join(root, 'sub');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'in.txt'), 'inside\n');
    await withServer('narrowing', ['--root', root, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', ROOTS_CAPS);
      read(s, 1, path.join(sub, 'in.txt'));
      answerRoots(s, await s.next(isRootsList), [sub]);
      const ok = await assertReadOk(s, 1, 'inside', 'inside the client root');
      assert.ok(!textOf(ok).includes("client's roots"), `no note when the roots overlap: ${show(textOf(ok))}`);
      read(s, 2, path.join(root, 'top.txt'));
      const r = await s.response(2);
      assert.equal(r.result?.isError, true, `outside the client's roots must be refused: ${show(r)}`);
      assert.ok(textOf(r).includes(`where the client's roots (${sub}) and this server's --root (${root}) overlap`),
        `the refusal must name both sets: ${show(textOf(r))}`);
    });
  });

  test('client roots outside --root: --root is used, said once in the log and in the first result', async () => {
    const root = dirWith({ 'a.txt': 'alpha\n' });
    const elsewhere = dirWith({ 'x.txt': 'elsewhere\n' }, 'mcp-edit-e2e-client-cwd-');
    const note = `The client's roots (${elsewhere}) are outside this server's --root (${root}); --root is used.`;
    await withServer('disjoint roots', ['--root', root, '--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', ROOTS_CAPS);
      read(s, 1, 'a.txt');
      answerRoots(s, await s.next(isRootsList), [elsewhere]);
      const first = await assertReadOk(s, 1, 'alpha', 'first call');
      assert.ok(textOf(first).endsWith(`\n\n${note}`), `the first result must carry the note: ${show(textOf(first))}`);
      read(s, 2, 'a.txt');
      const second = await assertReadOk(s, 2, 'alpha', 'second call');
      assert.ok(!textOf(second).includes("client's roots"), `the note is said once: ${show(textOf(second))}`);
      s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'edit', arguments: {
        file_path: path.join(elsewhere, 'x.txt'), old_string: 'elsewhere', new_string: 'changed' } } });
      const refused = await s.response(3);
      assert.equal(refused.result?.isError, true, show(refused));
      assert.ok(textOf(refused).includes(`this server's --root; the client's roots (${elsewhere}) are outside it`),
        `the refusal must name both sets: ${show(textOf(refused))}`);
      assert.equal(fs.readFileSync(path.join(elsewhere, 'x.txt'), 'utf8'), 'elsewhere\n');
      await pollUntil(() => s.stderr.text.includes(note), { what: () => `the log to say it too; stderr:\n${s.stderr.text.slice(-1500)}` });
      assert.equal(s.stderr.text.split(note).length - 1, 1, 'logged once');
    });
  });

  test('started without --root: the client\'s roots are the roots, not the working directory', async () => {
    const cwd = dirWith({ 'a.txt': 'from the working directory\n' }, 'mcp-edit-e2e-cwd-');
    const project = dirWith({ 'a.txt': 'from the client root\n' }, 'mcp-edit-e2e-project-');
    await withServer('no --root, client roots', ['--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', ROOTS_CAPS);
      read(s, 1, 'a.txt');
      answerRoots(s, await s.next(isRootsList), [project]);
      const r = await assertReadOk(s, 1, 'from the client root', 'relative to the client root');
      assert.equal(r.result.structuredContent?.file_path, path.join(project, 'a.txt'));
      read(s, 2, path.join(cwd, 'a.txt'));
      const refused = await s.response(2);
      assert.equal(refused.result?.isError, true, `the working directory is not a root now: ${show(refused)}`);
      assert.ok(textOf(refused).includes(`(${project}: the client's roots; this server was started without --root)`),
        show(textOf(refused)));
    }, { cwd });
    await withServer('no --root, no roots capability', ['--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', {});
      read(s, 1, 'a.txt');
      await assertReadOk(s, 1, 'from the working directory', 'a client without roots: the working directory');
    }, { cwd });
    await withServer('no --root, empty roots list', ['--no-fsync'], async (s) => {
      await s.initialize('2025-11-25', ROOTS_CAPS);
      read(s, 1, 'a.txt');
      answerRoots(s, await s.next(isRootsList), []);
      await assertReadOk(s, 1, 'from the working directory', 'no client roots: the working directory');
    }, { cwd });
  });
});

describe('a --root that does not exist is served', () => {
  test('legacy: instructions say what is wrong, tools/list lists the tools, every call fails saying why', async () => {
    const missing = path.join(makeTempDir(), 'does-not-exist');
    const problem = `mcp-edit is misconfigured: --root ${missing} does not exist. Fix the server's arguments in the host's configuration`;
    const project = dirWith({ 'a.txt': 'alpha\n' });
    await withServer('missing --root, legacy', ['--root', missing, '--no-fsync'], async (s) => {
      s.expectLog(/^\S+ error mcp-edit is misconfigured: --root \S+ does not exist\. /);
      const init = await s.initialize('2025-11-25', ROOTS_CAPS);
      assert.ok(init.instructions?.startsWith(problem), `instructions must lead with the problem: ${show(init.instructions)}`);
      const list = await s.request(1, 'tools/list');
      assert.deepEqual(list.result?.tools?.map((t) => t.name), SERVED_TOOLS, 'tools/list still lists the tools');
      read(s, 2, path.join(project, 'a.txt'));
      const r = await s.response(2);
      assert.equal(r.result?.isError, true, show(r));
      assert.ok(textOf(r).startsWith(problem), `the call must fail with the explanation: ${show(textOf(r))}`);
      assert.ok(textOf(r).includes('restart it'), show(textOf(r)));
      // Client roots never widen a --root that was given: nothing to ask them.
      assert.equal(rootsListsSent(s), 0);
      assert.ok(s.stderr.text.includes(problem), `logged as well: ${s.stderr.text.slice(-1000)}`);
    });
  });

  test('2026-07-28: server/discover instructions and tools/call say the same', async () => {
    const missing = path.join(makeTempDir(), 'does-not-exist');
    const problem = `mcp-edit is misconfigured: --root ${missing} does not exist.`;
    await withServer('missing --root, modern', ['--root', missing], async (s) => {
      s.expectLog(/^\S+ error mcp-edit is misconfigured: --root \S+ does not exist\. /);
      const d = await s.request(1, 'server/discover', { _meta: modernMeta() });
      assert.ok(d.result?.instructions?.startsWith(problem), show(d));
      const r = await s.request(2, 'tools/call', { name: 'edit', arguments: {
        file_path: 'a.txt', old_string: 'a', new_string: 'b' }, _meta: modernMeta() });
      assert.equal(r.result?.isError, true, show(r));
      assert.equal(r.result?.resultType, 'complete');
      assert.ok(textOf(r).startsWith(problem), show(textOf(r)));
    });
  });
});
