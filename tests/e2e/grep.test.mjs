// The grep tool through the official SDK client (which validates structuredContent against the
// outputSchema): CRLF, 8-bit bytes, binary files, long lines, context, ignored paths under
// --ignore-reads, symlinks out of the roots, a huge tree bounded with its "N more" line, an invalid
// regex, and a cancelled call. Every server line is validated against the MCP schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  assertNoProblems, cpuTicks, drain, makeTempDir, outsideRootsRe, requireBinary, show, tappedServer, textOf, validateTapDir,
  waitForCpu, waitForIdle, withRawSession,
} from './helpers.mjs';

requireBinary();

function put(dir, name, bytes) {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), bytes);
}

async function connect(root, extraArgs = []) {
  const tap = makeTempDir('mcp-edit-e2e-tap-');
  const tr = new StdioClientTransport(tappedServer(root, tap, extraArgs));
  const stderr = drain(tr.stderr);
  const client = new Client({ name: 'mcp-edit-e2e-grep', version: '0.0.0' }, { capabilities: {} });
  await client.connect(tr);
  return { client, tap, stderr, grep: (args, options) => client.callTool({ name: 'grep', arguments: args }, undefined, options) };
}

async function finish(s) {
  await s.client.close();
  const { problems } = validateTapDir(s.tap);
  assertNoProblems(problems, 'grep session');
}

describe('grep', { concurrency: true }, () => {
  test('text forms, binary files, context, ignored paths and symlinks out of the roots', async () => {
    const root = makeTempDir();
    const outside = makeTempDir();
    put(root, '.mcp-editignore', 'private/\n');
    put(root, 'private/hidden-name.txt', 'NEEDLE in an ignored folder\n');
    put(root, 'a.txt', 'alpha\r\nNEEDLE crlf\r\nomega\r\n');
    put(root, 'b.txt', Buffer.from('caf\xe9 NEEDLE\n', 'latin1'));
    put(root, 'c.bin', Buffer.from('NEEDLE\0binary'));
    put(root, 'd.txt', `${'x'.repeat(2000)}NEEDLE${'y'.repeat(2000)}\n`);
    put(outside, 'secret.txt', 'NEEDLE outside the roots\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-out.txt'));
    fs.symlinkSync(outside, path.join(root, 'dir-out'));
    fs.symlinkSync(path.join(root, 'a.txt'), path.join(root, 'link-in.txt'));
    const s = await connect(root, ['--ignore-reads']);
    try {
      const r = await s.grep({ pattern: 'NEEDLE', context: 1 });
      assert.notEqual(r.isError, true, show(r));
      const text = textOf(r);
      const files = r.structuredContent.files.map((f) => f.path);
      assert.deepEqual(files, ['a.txt', 'b.txt', 'd.txt', 'link-in.txt'], text);
      assert.equal(r.structuredContent.text, text, 'structuredContent alone carries the whole result');
      assert.deepEqual(r.structuredContent.files[0].lines, [2], 'the matching line numbers');
      assert.match(text, /\na\.txt\n1-alpha\n2:NEEDLE crlf\n3-omega\n/);
      assert.match(text, /\nb\.txt\n1:caf\uFFFD NEEDLE\n/);
      const long = text.split('\nd.txt\n')[1].split('\n')[0].replace(/^1:/, '');
      assert.ok(long.length < 320 && long.startsWith('\u2026') && long.endsWith('\u2026') && long.includes('NEEDLE'), long);
      assert.equal(r.structuredContent.binary_skipped, 1);
      assert.match(text, /Not searched: 1 binary file\./);
      assert.doesNotMatch(text, /outside the roots|secret|hidden-name|private/, 'nothing outside the roots, no ignored name');
      assert.ok(!JSON.stringify(r.structuredContent).includes('hidden-name'));

      const refused = await s.grep({ pattern: 'NEEDLE', path: 'private' });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /ignored/);
      const out = await s.grep({ pattern: 'NEEDLE', path: path.join(outside, 'secret.txt') });
      assert.equal(out.isError, true, show(out));
      assert.match(textOf(out), outsideRootsRe(path.join(outside, 'secret.txt'), root), `the refusal must say the path is outside the roots, naming them; it says ${show(textOf(out))}`);

      const bad = await s.grep({ pattern: 'NEEDLE(' });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /missing closing parenthesis.*literal: true/s);
      const literal = await s.grep({ pattern: 'needle crlf', literal: true, case_insensitive: true, path: 'a.txt' });
      assert.equal(literal.structuredContent.matches, 1, show(literal));
    } finally {
      await finish(s);
    }
  });

  test('a huge tree: the result stays bounded and names what is left; a cancelled call stops', async () => {
    const root = makeTempDir();
    for (let i = 0; i < 1500; i++) put(root, `d${String(i % 30).padStart(2, '0')}/f${String(i).padStart(4, '0')}.txt`, `x\nmatch ${i}\n${'line\n'.repeat(50)}${'x'.repeat(40)}\ny\n`);
    const s = await connect(root);
    try {
      const r = await s.grep({ pattern: 'match \\d+' });
      assert.notEqual(r.isError, true, show(r).slice(0, 500));
      const sc = r.structuredContent;
      assert.equal(sc.matches, 1500);
      assert.equal(sc.shown_matches, 200);
      assert.equal(sc.more_matches, 1300);
      assert.equal(sc.more_files, 1300);
      assert.match(textOf(r), /\n1,300 more matches in 1,300 files; narrow with glob or path/);
      assert.ok(textOf(r).length < 64 * 1024);
      assert.ok(JSON.stringify(sc).length < 45000, `structuredContent is ${JSON.stringify(sc).length} characters`);
      assert.equal(sc.files[0].path, 'd00/f0000.txt', 'path order');

      const narrowed = await s.grep({ pattern: 'match', glob: 'd01/*.txt', max_results: 1000 });
      assert.equal(narrowed.structuredContent.matches, 50, show(narrowed.structuredContent).slice(0, 300));

      // A pattern that backtracks for long on every file (each try is cut at PCRE2's match limit;
      // \\d, not a letter, so that PCRE2 cannot rule a line out by a character it lacks): the
      // whole search takes seconds; the cancelled call ends and the server goes on.
      const controller = new AbortController();
      const pending = s.grep({ pattern: '(x+x+)+\\d' }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 200);  // the scenario: cancelled while it runs (it runs for seconds)
      await assert.rejects(pending);
      const after = await s.grep({ pattern: 'match 7$', path: 'd07' });
      assert.equal(after.structuredContent.matches, 1, 'the server goes on after a cancellation');
    } finally {
      await finish(s);
    }
  });

  test('a cancelled call stops its walk and workers: no CPU spent after it, no reply', async () => {
    const root = makeTempDir();
    // Each file holds runs of x that `(x+x+)+\\d` backtracks over until PCRE2's match limit, on
    // every line: searching them all would take a minute.
    for (let i = 0; i < 800; i++) put(root, `d${i % 20}/f${i}.txt`, `${'x'.repeat(40)}\n`.repeat(50));
    await withRawSession('grep cancelled', ['--root', root], async (s) => {
      await s.initialize();
      const start = cpuTicks(s.child.pid);
      s.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'grep', arguments: { pattern: '(x+x+)+\\d' } } });
      await waitForCpu(s.child.pid, start, 20, { what: 'the grep' });  // under way
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'test' } });
      const pong = await s.request(8, 'ping');
      assert.deepEqual(pong.result, {});
      // The search has stopped when the server goes quiet (its CPU time stops growing) within
      // seconds: the whole search would take a minute.
      await waitForIdle(s.child.pid, { timeout: 5000, what: 'the server after the grep was cancelled' });
      const exit = await s.close(5000);
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.ok(!s.unconsumed().some((m) => m?.id === 7), 'no reply to the cancelled call');
    });
  });
  test('a pattern that runs long inside one PCRE2 call: ping answers meanwhile, cancelled greps free the pool at once', async () => {
    const root = makeTempDir();
    // One 10 MB line without a digit: `[\s\S]{1,4000}\d` tries 4,000 characters at each of its
    // 10 million start positions (48 s in one PCRE2 call before calls were bounded).
    put(root, 'big.txt', 'a'.repeat(10 * 1024 * 1024));
    put(root, 'small.txt', 'hello\n');
    await withRawSession('grep long regex', ['--root', root], async (s) => {
      await s.initialize();
      const grep = (id) => s.send({ jsonrpc: '2.0', id, method: 'tools/call',
        params: { name: 'grep', arguments: { pattern: '[\\s\\S]{1,4000}\\d', path: 'big.txt' } } });
      const start = cpuTicks(s.child.pid);
      grep(7);
      grep(9);
      await waitForCpu(s.child.pid, start, 30, { what: 'the two greps' });  // under way
      let t = Date.now();
      const pong = await s.request(8, 'ping');
      const pingMs = Date.now() - t;
      assert.deepEqual(pong.result, {});
      // Timing: a generous bound so that a loaded machine does not fail it; the number is reported.
      assert.ok(pingMs < 2000, `ping took ${pingMs} ms while two greps ran`);
      assert.ok(!s.messages.some((m) => m.msg?.id === 7 || m.msg?.id === 9), 'the greps were still running when ping answered');
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'test' } });
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'test' } });
      // Both greps held a pool thread; cancelled, they let go within milliseconds, and a read of
      // a small file (which goes to the pool beside other calls) is not held up behind them.
      t = Date.now();
      const read = await s.request(10, 'tools/call', { name: 'read', arguments: { file_path: 'small.txt' } }, { timeout: 60000 });
      const readMs = Date.now() - t;
      assert.match(JSON.stringify(read.result), /hello/);
      assert.ok(readMs < 2000, `the read after the cancelled greps took ${readMs} ms`);
      const spent = await waitForIdle(s.child.pid, { timeout: 5000, what: 'the server after both greps were cancelled' });
      console.log(`# ping during two long greps: ${pingMs} ms; read after cancelling them: ${readMs} ms; CPU until quiet: ${spent / 100} s`);
      const exit = await s.close(5000);
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.ok(!s.unconsumed().some((m) => m?.id === 7 || m?.id === 9), 'no reply to the cancelled calls');
    });
  });
});
