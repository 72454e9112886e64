// list and find through the official SDK 1.x client: the outline and find's globs on a tree with
// CRLF and non-UTF-8 names and content, symlinks in and out of the roots, ignored paths (named,
// or only counted under --ignore-reads), a 20,000-file tree that stays under the output budget
// and says what it left out, and a cancelled walk (notifications/cancelled) of a big tree that
// must really stop (the server's CPU time, from /proc, stops growing).
// Every server line is validated against the MCP schema, structuredContent against outputSchema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  assertNoProblems, cpuTicks, drain, outsideRootsRe, makeTempDir, outputValidator, requireBinary, serverBehindTap, show, tappedServer, textOf,
  validateTapDir, waitForCpu, waitForIdle,
} from './helpers.mjs';

requireBinary();

const POSIX = process.platform !== 'win32';

function tree() {
  const base = makeTempDir();
  const dir = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(dir);
  fs.mkdirSync(outside);
  const put = (name, bytes) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), bytes);
  };
  put('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
  put('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  put('src/main.c', 'int main(void) { return 0; }\n');
  put('src/util.h', '#pragma once\n');
  put('build/out.o', 'x');
  put('secret-key.txt', 'k');
  put('.gitignore', 'build/\n');
  put('.mcp-editignore', 'secret-*.txt\n');
  put('.git/HEAD', 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(outside, 'leak.c'), 'int leaked;\n');
  if (POSIX) {
    fs.writeFileSync(Buffer.concat([Buffer.from(path.join(dir, 'name-')), Buffer.from([0xff]), Buffer.from('.c')]), '');
    fs.symlinkSync(outside, path.join(dir, 'to_outside'));
    fs.symlinkSync(path.join(dir, 'src'), path.join(dir, 'to_src'));
  }
  return { base, dir, outside, put };
}

async function connect(root, args = []) {
  const tap = makeTempDir('mcp-edit-e2e-tap-');
  const tr = new StdioClientTransport(tappedServer(root, tap, args));
  drain(tr.stderr);
  const client = new Client({ name: 'mcp-edit-e2e-list-find', version: '0.0.0' }, { capabilities: {} });
  await client.connect(tr);
  const { tools } = await client.listTools();
  const validators = Object.fromEntries(tools.filter((t) => ['list', 'find'].includes(t.name)).map((t) => [t.name, outputValidator(t)]));
  const call = async (name, args, options) => {
    const r = await client.callTool({ name, arguments: args }, undefined, options);
    if (!r.isError) {
      const problem = validators[name](r.structuredContent);
      assert.equal(problem, null, `${name} ${show(args)}: structuredContent breaks outputSchema: ${problem}`);
    }
    return r;
  };
  return { client, call, tap, tools, tr };
}

describe('list and find', { concurrency: true }, () => {
  test('an outline and globs: CRLF, non-UTF-8, symlinks in and out of the roots, ignored paths named', async () => {
    const t = tree();
    const { client, call, tap, tools } = await connect(t.dir, ['--respect-gitignore']);
    try {
      for (const name of ['list', 'find']) {
        const def = tools.find((x) => x.name === name);
        assert.equal(def?.annotations?.readOnlyHint, true, `${name} is read-only`);
      }
      const l = await call('list', { path: t.dir, depth: 3 });
      const text = textOf(l);
      assert.notEqual(l.isError, true, text);
      assert.match(text, /^\.\/\n/);
      assert.match(text, /\n {2}crlf\.txt {2}17 B, 3 lines\n/, 'CRLF lines counted once');
      assert.match(text, /\n {2}latin1\.txt {2}5 B, 1 line\n/);
      assert.match(text, /\n {2}src\/\n {4}main\.c {2}29 B, 1 line\n {4}util\.h {2}13 B, 1 line\n/);
      assert.doesNotMatch(text, /out\.o|secret-key|HEAD/, 'ignored and .git entries are left out');
      assert.match(text, /Left out: 1 \.git folder; 2 entries the ignore rules cover \(`build\/` in \.gitignore line 1: 1, `secret-\*\.txt` in \.mcp-editignore line 1: 1\)/);
      if (POSIX) {
        assert.match(text, /\n {2}"name-\\377\.c" {2}0 B, 0 lines\n/, 'a non-UTF-8 name is quoted as git quotes it');
        assert.match(text, /\n {2}to_outside -> \(a symlink to outside the roots, not followed\)\n/);
        assert.match(text, /\n {2}to_src\/ -> src\/\n {4}main\.c/, 'a symlink inside the roots is followed');
        assert.doesNotMatch(text, /leak/, 'nothing outside the roots is shown');
        assert.equal(l.structuredContent.text, text, 'structuredContent alone carries the whole outline');
      }

      const f = await call('find', { pattern: '**/*.{c,h}' });
      assert.equal(f.structuredContent.text, textOf(f), 'structuredContent alone carries the whole result');
      const found = textOf(f).split('\n').slice(1).filter((x) => x && !x.startsWith('Left out'));
      const expected = POSIX ? ['"name-\\377.c"', 'src/main.c', 'src/util.h', 'to_src/main.c', 'to_src/util.h'] : ['src/main.c', 'src/util.h'];
      assert.deepEqual(found, expected, textOf(f));
      const byName = await call('find', { pattern: 'main.c' });
      assert.equal(byName.structuredContent.total, POSIX ? 2 : 1, 'a name without / matches at any depth');
      const outsideFind = await call('find', { pattern: '*.c', path: t.outside });
      assert.equal(outsideFind.isError, true, 'a path outside the roots is refused');
      assert.match(textOf(outsideFind), outsideRootsRe(t.outside, t.dir), `the refusal must say the path is outside the roots, naming them; it says ${show(textOf(outsideFind))}`);
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'list and find');
  });

  test('--ignore-reads: an ignored name never shows, not even in the count of rules; the folder itself is refused', async () => {
    const t = tree();
    const { client, call, tap } = await connect(t.dir, ['--respect-gitignore', '--ignore-reads']);
    try {
      const l = await call('list', { depth: 3 });
      assert.doesNotMatch(textOf(l), /secret|out\.o|build/, textOf(l));
      assert.match(textOf(l), /2 entries the ignore rules cover \(not named: --ignore-reads\)/);
      assert.equal(l.structuredContent.left_out.rules, undefined);
      const f = await call('find', { pattern: '**/*' });
      assert.doesNotMatch(JSON.stringify(f), /secret|out\.o/);
      const b = await call('list', { path: 'build' });
      assert.equal(b.isError, true);
      assert.match(textOf(b), /Refused: build is ignored/);
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, '--ignore-reads');
  });

  test('a 20,000-file tree: list and find stay under the budget and say what they left out', async () => {
    const dir = makeTempDir();
    for (let d = 0; d < 100; d++) {
      const sub = path.join(dir, `pkg${String(d).padStart(3, '0')}`, 'src');
      fs.mkdirSync(sub, { recursive: true });
      for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(sub, `file${i}.c`), '');
    }
    const { client, call, tap } = await connect(dir);
    try {
      const l = await call('list', { depth: 3 });
      const text = textOf(l);
      assert.ok(Buffer.byteLength(text) < 34 * 1024, `list text is ${Buffer.byteLength(text)} bytes`);
      assert.match(text, /Not shown: [\d,]+ more files and [\d,]+ folders within depth 3/);
      const s = l.structuredContent;
      assert.equal(s.shown + s.more_files + s.more_folders, 100 * 202, 'every entry within depth is shown or counted');
      assert.equal(s.text, text);
      assert.ok(JSON.stringify(s).length < 45000, `list structuredContent is ${JSON.stringify(s).length} characters`);
      const f = await call('find', { pattern: '**/*.c' });
      assert.equal(f.structuredContent.total, 20000);
      assert.equal(f.structuredContent.shown, 200);
      assert.equal(f.structuredContent.text, textOf(f));
      assert.match(textOf(f), /… 19,800 more; narrow the pattern or the path\./);
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'huge tree');
  });

  test('notifications/cancelled stops a walk of a big tree: the server spends no more CPU on it; it answers the next call', async () => {
    // A walk that takes half a minute of CPU here: 3,000 files in 10 nested folders, each folder
    // with a .gitignore of 10,000 rules (the most one file may hold), so a file is matched against
    // tens of thousands of rules. Cancelled once the server is seen working on it, the walk must
    // stop: the server goes quiet within seconds, long before the walk could have ended on its own.
    const dir = makeTempDir();
    const rules = [];
    for (let i = 0; i < 10000; i++) rules.push(`*never${i}*[0-9]x.txt`);
    const ignore = rules.join('\n') + '\n';
    fs.writeFileSync(path.join(dir, '.gitignore'), ignore);
    let deep = dir;
    for (let d = 0; d < 10; d++) {
      deep = path.join(deep, `level${d}`);
      fs.mkdirSync(deep);
      fs.writeFileSync(path.join(deep, '.gitignore'), ignore);
      for (let i = 0; i < 300; i++) fs.writeFileSync(path.join(deep, `f${i}.txt`), '');
    }
    const { client, call, tap, tr } = await connect(dir, ['--respect-gitignore']);
    try {
      const server = await serverBehindTap(tr.pid);
      const before = cpuTicks(server);
      const ac = new AbortController();
      const pending = call('find', { pattern: '**/*.nothing' }, { signal: ac.signal, timeout: 120000 });
      pending.catch(() => {});
      // The walk is under way: the server has spent half a second of CPU on it.
      await waitForCpu(server, before, 50, { what: 'the find walk' });
      ac.abort();
      await assert.rejects(pending, 'the cancelled call rejects on the client side');
      const spent = await waitForIdle(server, { timeout: 5000, what: 'the server after the find was cancelled' });
      console.log(`# CPU after the cancel until quiet: ${spent / 100} s`);
      const next = await call('list', { depth: 1 });
      assert.match(textOf(next), /level0\//);
    } finally {
      await client.close().catch(() => {});
    }
    const { connections, problems } = validateTapDir(tap);
    assertNoProblems(problems, 'cancellation');
    const messages = connections[0].messages;
    const cancelled = messages.find((m) => m.dir === 'c2s' && m.msg.method === 'notifications/cancelled');
    assert.ok(cancelled, 'the SDK sent notifications/cancelled');
    const id = cancelled.msg.params.requestId;
    const replies = messages.filter((m) => m.dir === 's2c' && m.msg.id === id);
    assert.equal(replies.length, 0, `a cancelled request gets no response; got ${show(replies).slice(0, 600)}; ` +
      `in order: ${show(messages.map((m) => `${m.dir} ${m.msg.method ?? ''} ${m.msg.id ?? m.msg.params?.requestId ?? ''}`))}`);
  });
});
