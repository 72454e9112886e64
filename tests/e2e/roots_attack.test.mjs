// Roots under attack (issue 39, items 2, 3, 4 and 7), driven line by line: a client that changes
// its roots five times over (each root still held by descriptor), a root renamed away and replaced
// by another folder (refused as moved, nothing read or written in either), `~/` naming a symlink
// for delete and move (refused like any spelling), and two roots holding files of the same name
// (every path shown names one file when passed back; a bare path in both is refused). Every line
// the server writes is validated against the negotiated schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { RawSession, makeTempDir, requireBinary, show, textOf, withRawSession } from './helpers.mjs';

requireBinary();
const ROOTS_CAPS = { roots: { listChanged: true } };
const uri = (dir) => `file://${dir.split('/').map(encodeURIComponent).join('/')}`;
const isRootsList = (m) => m?.method === 'roots/list' && 'id' in m;

function put(dir, name, text) {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
}

let nextId = 1;
async function call(s, name, args) {
  const id = nextId++;
  s.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  const r = await s.response(id, { timeout: 10000 });
  assert.ok(r.result, `${name}: expected a result, got ${show(r).slice(0, 600)}`);
  return r.result;
}

function ok(r, what) {
  assert.notEqual(r.isError, true, `${what}: must succeed, got ${show(r).slice(0, 800)}`);
  return textOf(r);
}

function refused(r, what, ...patterns) {
  assert.equal(r.isError, true, `${what}: must be refused, got ${show(r).slice(0, 800)}`);
  for (const p of patterns) assert.match(textOf(r), p, `${what}: ${show(textOf(r))}`);
  return textOf(r);
}

const serve = (label, args, body, opts = {}) => withRawSession(label, args, body, { cleanExit: true, ...opts });

describe('roots under attack (issue 39)', { concurrency: true }, () => {
  test('item 2: five answers of 64 new roots each: every root works, and each answer replaces the last', async () => {
    const cwd = makeTempDir('mcp-edit-e2e-cwd-');
    const base = makeTempDir('mcp-edit-e2e-many-roots-');
    await serve('five rounds of 64 roots', ['--no-fsync', '--approval', 'auto', '--log-level', 'off'], async (s) => {
      await s.initialize('2025-11-25', ROOTS_CAPS);
      let last = [];
      for (let round = 0; round < 5; round += 1) {
        const dirs = [];
        for (let i = 0; i < 64; i += 1) {
          const dir = path.join(base, `r${round}-${i}`);
          put(dir, 'real/t.txt', `round ${round} root ${i}\n`);
          dirs.push(dir);
        }
        if (round > 0) s.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
        const id = nextId++;
        s.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read', arguments: { file_path: path.join(dirs[63], 'real/t.txt') } } });
        const ask = await s.next(isRootsList, { what: `roots/list of round ${round}` });
        s.send({ jsonrpc: '2.0', id: ask.id, result: { roots: dirs.map((d) => ({ uri: uri(d) })) } });
        const r = await s.response(id, { timeout: 10000 });
        assert.match(ok(r.result, `read in round ${round}`), new RegExp(`round ${round} root 63`));
        last = dirs;
      }
      // The roots of earlier answers are released: only the last answer's folders are held open
      // (before, every answer's were kept, and past 256 the rest were opened by name).
      if (process.platform === 'linux') {
        const held = fs.readdirSync(`/proc/${s.child.pid}/fd`).map((fd) => {
          try { return fs.readlinkSync(`/proc/${s.child.pid}/fd/${fd}`); } catch { return ''; }
        }).filter((target) => target.startsWith(`${base}/`));
        assert.equal(held.filter((t) => !t.includes('/r4-')).length, 0, `earlier rounds' roots still held: ${held.slice(0, 5)}`);
        assert.equal(held.filter((t) => /\/r4-\d+$/.test(t)).length, 64, 'the last round\'s 64 roots are held');
      }
      // The first round's roots are no longer roots: refused as outside, not read.
      refused(await call(s, 'read', { file_path: path.join(base, 'r0-0/real/t.txt') }), 'a root the client no longer lists',
        /outside the allowed roots/);
      // The last round's roots are held: a folder swapped for a symlink to outside is not followed.
      const outside = makeTempDir('mcp-edit-e2e-outside-');
      put(outside, 't.txt', 'OUTSIDE CONTENT\n');
      const dir = last[10];
      fs.renameSync(path.join(dir, 'real'), path.join(dir, 'real.hold'));
      fs.symlinkSync(outside, path.join(dir, 'real'));
      const r = await call(s, 'read', { file_path: path.join(dir, 'real/t.txt') });
      assert.equal(r.isError, true, show(r));
      assert.doesNotMatch(textOf(r), /OUTSIDE CONTENT/);
      assert.doesNotMatch(textOf(r), new RegExp(outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the refusal names no outside target');
    });
  });

  test('item 3: a root renamed away and replaced by a real folder: read, edit and create are refused as moved', async () => {
    const base = makeTempDir('mcp-edit-e2e-moved-root-');
    const root = path.join(base, 'R');
    put(root, 'a.txt', 'held\n');
    await serve('root moved', ['--root', root, '--no-fsync', '--approval', 'auto', '--log-level', 'off'], async (s) => {
      await s.initialize('2025-11-25');
      assert.match(ok(await call(s, 'read', { file_path: 'a.txt' }), 'read before'), /held/);
      fs.renameSync(root, path.join(base, 'moved'));
      put(root, 'a.txt', 'the new folder\n');
      const moved = /the root .*\/R was moved or replaced/;
      refused(await call(s, 'read', { file_path: 'a.txt' }), 'read', moved);
      refused(await call(s, 'edit', { file_path: 'a.txt', old_string: 'held', new_string: 'HELD' }), 'edit', moved);
      refused(await call(s, 'write', { file_path: 'new.txt', content: 'x\n' }), 'create', moved);
      refused(await call(s, 'list', {}), 'list', moved);
      assert.equal(fs.readFileSync(path.join(base, 'moved', 'a.txt'), 'utf8'), 'held\n', 'the moved folder is untouched');
      assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'the new folder\n');
      assert.ok(!fs.existsSync(path.join(base, 'moved', 'new.txt')) && !fs.existsSync(path.join(root, 'new.txt')), 'nothing created');
    });
  });

  test('item 4: delete and move of ~/…/bin/binlink are refused as a symlink; its target stays', async () => {
    const home = makeTempDir('mcp-edit-e2e-home-');
    const root = path.join(home, 'r1');
    put(root, 'bin/target.txt', 'target\n');
    fs.symlinkSync(path.join(root, 'bin/target.txt'), path.join(root, 'bin/binlink'));
    const saved = process.env.HOME;
    process.env.HOME = home;  // the server's home, taken when it is spawned
    const s = new RawSession(['--root', root, '--no-fsync', '--approval', 'auto', '--log-level', 'off'], { label: 'tilde symlink' });
    process.env.HOME = saved;
    try {
      await s.initialize('2025-11-25');
      ok(await call(s, 'read', { file_path: 'bin/target.txt' }), 'read the target');
      refused(await call(s, 'delete', { file_path: '~/r1/bin/binlink' }), 'delete ~/', /symbolic link/);
      refused(await call(s, 'move', { from: '~/r1/bin/binlink', to: 'moved.txt' }), 'move ~/', /symbolic link/);
      assert.equal(fs.readFileSync(path.join(root, 'bin/target.txt'), 'utf8'), 'target\n');
      assert.ok(fs.lstatSync(path.join(root, 'bin/binlink')).isSymbolicLink());
      assert.ok(!fs.existsSync(path.join(root, 'moved.txt')));
    } finally {
      await s.close();
    }
  });

  test('item 7: two roots with a config.py each: shown paths carry their root and name one file when passed back', async () => {
    const base = makeTempDir('mcp-edit-e2e-two-roots-');
    const first = path.join(base, 'alpha');
    const second = path.join(base, 'beta');
    put(first, 'config.py', 'VALUE = 1\n');
    put(second, 'config.py', 'VALUE = 2\n');
    put(first, 'a.txt', 'a\n');
    put(second, 'sub/keep.txt', 'k\n');
    const args = ['--root', first, '--root', second, '--no-fsync', '--approval', 'auto', '--log-level', 'off'];
    await serve('two roots', args, async (s) => {
      await s.initialize('2025-11-25');
      const found = await call(s, 'grep', { pattern: 'VALUE', path: second });
      const text = ok(found, 'grep in the second root');
      assert.match(text, /beta\/config\.py/, text);
      assert.deepEqual(found.structuredContent.files.map((f) => f.path), ['beta/config.py']);
      const listed = ok(await call(s, 'find', { pattern: '*.py', path: second }), 'find in the second root');
      assert.match(listed, /beta\/config\.py/, listed);
      // Passed back as shown: the second root's file, and only it.
      ok(await call(s, 'read', { file_path: 'beta/config.py' }), 'read as shown');
      const edited = ok(await call(s, 'edit', { file_path: 'beta/config.py', old_string: 'VALUE = 2', new_string: 'VALUE = 22' }), 'edit as shown');
      assert.match(edited, /beta\/config\.py/);
      assert.equal(fs.readFileSync(path.join(second, 'config.py'), 'utf8'), 'VALUE = 22\n');
      assert.equal(fs.readFileSync(path.join(first, 'config.py'), 'utf8'), 'VALUE = 1\n', 'the first root\'s config.py is untouched');
      // A bare name that exists in both roots says which ones, and changes nothing.
      refused(await call(s, 'edit', { file_path: 'config.py', old_string: 'VALUE', new_string: 'X' }), 'bare config.py',
        /exists in 2 roots/, /alpha\/config\.py/, /beta\/config\.py/);
      ok(await call(s, 'read', { file_path: 'alpha/config.py' }), 'read the first');
      ok(await call(s, 'edit', { file_path: 'alpha/config.py', old_string: 'VALUE = 1', new_string: 'VALUE = 11' }), 'edit the first');
      // A move across roots names its destination with its root.
      ok(await call(s, 'read', { file_path: 'a.txt' }), 'read a.txt (in the first root only)');
      const moved = await call(s, 'move', { from: 'a.txt', to: path.join(second, 'sub/a2.txt') });
      const movedText = ok(moved, 'move across roots');
      assert.match(movedText, /rename from alpha\/a\.txt\nrename to beta\/sub\/a2\.txt/, movedText);
      assert.equal(fs.readFileSync(path.join(second, 'sub/a2.txt'), 'utf8'), 'a\n');
      // The session patch: one section per file, each named with its root.
      const patch = ok(await call(s, 'changes', {}), 'changes');
      assert.match(patch, /--- a\/alpha\/config\.py\n\+\+\+ b\/alpha\/config\.py/, patch);
      assert.match(patch, /--- a\/beta\/config\.py\n\+\+\+ b\/beta\/config\.py/, patch);
      assert.doesNotMatch(patch, /^(---|\+\+\+) [ab]\/config\.py/m, patch);
    });
  });
});
