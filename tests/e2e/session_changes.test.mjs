// The session's changes through the official clients: SDK 1.x lists resources, subscribes to the
// session patch and hears notifications/resources/updated and list_changed when a change lands,
// reads the patch and a file's diff; `git apply` of the patch onto a copy of the tree as it was
// gives the files as they are now (CRLF lines included); the changes tool's structuredContent
// matches its outputSchema. Client 2.4.0 (2026-07-28) lists and reads them. Every line is schema-checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernTransport } from '@modelcontextprotocol/client/stdio';
import {
  BINARY, assertNoProblems, drain, makeTempDir, outputValidator, requireBinary, show, tappedServer, validateTapDir,
} from './helpers.mjs';

requireBinary();

const PATCH = 'mcp-edit://session/patch';

function waitFor(list, predicate, what, ms = 5000) {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const tick = () => {
      const found = list.find(predicate);
      if (found) return resolve(found);
      if (Date.now() - start > ms) return reject(new Error(`no ${what} within ${ms} ms: got ${show(list)}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

describe('session changes', { concurrency: true }, () => {
  test('SDK 1.x: resources, subscription notifications, the changes tool', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'app.py'), 'def f():\n    return 1\n');
    fs.writeFileSync(path.join(dir, 'win.txt'), 'a\r\nb\r\n');
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(dir, tap, ['--approval', 'auto']));
    drain(tr.stderr);
    const client = new Client({ name: 'mcp-edit-e2e-changes', version: '0.0.0' }, { capabilities: {} });
    const heard = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { heard.push(n); });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => { heard.push(n); });
    await client.connect(tr);
    try {
      assert.deepEqual(client.getServerCapabilities().resources, { subscribe: true, listChanged: true });
      const empty = await client.listResources();
      assert.deepEqual(empty.resources.map((r) => r.uri), [PATCH]);
      await client.subscribeResource({ uri: PATCH });

      const edit = (file, from, to) => client.callTool({ name: 'edit', arguments: { file_path: path.join(dir, file), old_string: from, new_string: to } });
      assert.notEqual((await edit('app.py', 'return 1', 'return 2')).isError, true);
      await waitFor(heard, (n) => n.method === 'notifications/resources/updated' && n.params.uri === PATCH, 'resources/updated');
      await waitFor(heard, (n) => n.method === 'notifications/resources/list_changed', 'resources/list_changed');
      assert.notEqual((await edit('win.txt', 'b', 'c')).isError, true);
      await client.callTool({ name: 'write', arguments: { file_path: path.join(dir, 'docs/new.md'), content: '# New\n' } });

      const list = await client.listResources();
      assert.deepEqual(list.resources.map((r) => r.name), ['session.patch', 'app.py', 'win.txt', path.join('docs', 'new.md').replaceAll('\\', '/')]);
      const patch = (await client.readResource({ uri: PATCH })).contents[0];
      assert.equal(patch.mimeType, 'text/x-diff');
      assert.equal(patch.text,
        '--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n' +
        '--- a/win.txt\n+++ b/win.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n' +
        '--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,1 @@\n+# New\n');
      const one = (await client.readResource({ uri: list.resources[2].uri })).contents[0];
      assert.equal(one.text, '--- a/win.txt\n+++ b/win.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n');

      // The patch applies: the tree as it was, patched, is the tree as it is.
      const before = makeTempDir();
      fs.writeFileSync(path.join(before, 'app.py'), 'def f():\n    return 1\n');
      fs.writeFileSync(path.join(before, 'win.txt'), 'a\r\nb\r\n');
      fs.writeFileSync(path.join(before, 'session.patch'), patch.text);
      const git = spawnSync('git', ['apply', '--unsafe-paths', 'session.patch'], { cwd: before, encoding: 'utf8' });
      assert.equal(git.status, 0, `git apply: ${git.stderr}`);
      for (const f of ['app.py', 'win.txt', 'docs/new.md'])
        assert.deepEqual(fs.readFileSync(path.join(before, f)), fs.readFileSync(path.join(dir, f)), `${f} after git apply`);

      const { tools } = await client.listTools();
      const changesTool = tools.find((t) => t.name === 'changes');
      assert.ok(changesTool, 'tools/list has changes');
      const r = await client.callTool({ name: 'changes', arguments: {} });
      assert.equal(outputValidator(changesTool)(r.structuredContent), null, 'structuredContent matches the outputSchema');
      assert.equal(r.structuredContent.patch, patch.text);
      assert.match(r.structuredContent.summary, /^This session changed 3 files; .* 3 files differ now \(\+3 -2\)\.$/);
      assert.deepEqual(r.structuredContent.files.map((f) => [path.basename(f.file_path), f.created, f.changes]),
        [['app.py', false, 1], ['win.txt', false, 1], ['new.md', true, 1]]);
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'session changes (SDK 1.x)');
  });

  test('--history-dir: after a restart, undo walks back and the session patch still starts before the first change', async () => {
    const dir = makeTempDir();
    const history = makeTempDir('mcp-edit-e2e-history-');
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'alpha\nbeta\n');
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const session = async (label, body) => {
      const tr = new StdioClientTransport(tappedServer(dir, tap, ['--approval', 'auto', '--history-dir', history]));
      drain(tr.stderr);
      const client = new Client({ name: `mcp-edit-e2e-${label}`, version: '0.0.0' }, { capabilities: {} });
      await client.connect(tr);
      try {
        await body(client);
      } finally {
        await client.close().catch(() => {});
      }
    };
    await session('history-1', async (client) => {
      for (const [from, to] of [['alpha', 'ALPHA'], ['beta', 'BETA']]) {
        const r = await client.callTool({ name: 'edit', arguments: { file_path: file, old_string: from, new_string: to } });
        assert.notEqual(r.isError, true, show(r).slice(0, 300));
      }
    });
    await session('history-2', async (client) => {
      const patch = (await client.readResource({ uri: PATCH })).contents[0].text;
      assert.equal(patch, '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n-alpha\n-beta\n+ALPHA\n+BETA\n', 'the patch survives the restart');
      const undo = await client.callTool({ name: 'undo', arguments: { file_path: file } });
      assert.notEqual(undo.isError, true, `undo after a restart: ${show(undo).slice(0, 300)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'ALPHA\nbeta\n');
    });
    await session('history-3', async (client) => {
      const undo = await client.callTool({ name: 'undo', arguments: { file_path: file } });
      assert.notEqual(undo.isError, true, `the second undo, after another restart: ${show(undo).slice(0, 300)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'alpha\nbeta\n');
      const none = await client.callTool({ name: 'undo', arguments: { file_path: file } });
      assert.equal(none.isError, true, 'nothing left to undo');
    });
    assertNoProblems(validateTapDir(tap).problems, '--history-dir (SDK 1.x)');
  });

  test('names with newlines, tabs, quotes and escapes: the patch quotes them as git does and applies to exactly those files', async () => {
    // Unquoted, the folder "odd\n+++ b" made the patch's header lines create a file run.sh and
    // the rest of the names forged more lines (issue 39, item 6).
    const odd = ['odd\n+++ b', 'run.sh'];
    const shown = `tab\there "q" \\ \x1b[31mred.txt `;
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'README.md'), 'read me\n');
    fs.writeFileSync(path.join(dir, 'plain.txt'), 'moved bytes\n');
    const before = makeTempDir();
    fs.cpSync(dir, before, { recursive: true });
    const tr = new StdioClientTransport({ command: BINARY, args: ['--root', dir, '--approval', 'auto'] });
    drain(tr.stderr);
    const client = new Client({ name: 'mcp-edit-e2e-odd-names', version: '0.0.0' }, { capabilities: {} });
    await client.connect(tr);
    try {
      const call = async (name, args) => {
        const r = await client.callTool({ name, arguments: args });
        assert.notEqual(r.isError, true, `${name}: ${show(r).slice(0, 400)}`);
        return r;
      };
      await call('write', { file_path: path.join(dir, ...odd), content: 'echo created\n' });
      await call('write', { file_path: path.join(dir, shown), content: 'colours\n' });
      await call('edit', { file_path: path.join(dir, 'README.md'), old_string: 'read me', new_string: 'read me twice' });
      await call('move', { from: path.join(dir, 'plain.txt'), to: path.join(dir, 'line\nbreak.txt') });
      const patch = (await call('changes', {})).structuredContent.patch;
      assert.ok(patch.includes('+++ "b/odd\\n+++ b/run.sh"\n'), `the odd name quoted: ${show(patch)}`);
      assert.ok(patch.includes('rename to "line\\nbreak.txt"\n'), `the rename quoted: ${show(patch)}`);
      assert.ok(!patch.split('\n').includes('+++ b/run.sh'), 'no forged header line');
      for (const [tool, args] of [['git', ['apply', 'session.patch']], ['patch', ['-p1', '-s', '-i', 'session.patch']]]) {
        const copy = makeTempDir();
        fs.cpSync(before, copy, { recursive: true });
        fs.writeFileSync(path.join(copy, 'session.patch'), patch);
        const run = spawnSync(tool, args, { cwd: copy, encoding: 'utf8' });
        if (run.error?.code === 'ENOENT') continue;  // patch(1) is not installed
        assert.equal(run.status, 0, `${tool}: ${run.stderr}`);
        fs.rmSync(path.join(copy, 'session.patch'));
        const files = (root) => fs.readdirSync(root, { recursive: true }).filter((f) => fs.statSync(path.join(root, f)).isFile()).sort();
        assert.deepEqual(files(copy), files(dir), `${tool}: the patched tree has exactly the files the server made`);
        for (const f of files(dir)) assert.deepEqual(fs.readFileSync(path.join(copy, f)), fs.readFileSync(path.join(dir, f)), `${tool}: ${show(f)}`);
      }
    } finally {
      await client.close().catch(() => {});
    }
  });

  test('client 2.4.0 (2026-07-28): resources/list and resources/read', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new ModernTransport(tappedServer(dir, tap, ['--approval', 'auto']));
    drain(tr.stderr);
    const client = new ModernClient({ name: 'mcp-edit-e2e-changes-modern', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(tr, { timeout: 10000 });
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      const r = await client.callTool({ name: 'edit', arguments: { file_path: path.join(dir, 'a.txt'), old_string: 'one', new_string: 'two' } });
      assert.notEqual(r.isError, true, show(r).slice(0, 300));
      const list = await client.listResources();
      assert.deepEqual(list.resources.map((x) => x.name), ['session.patch', 'a.txt']);
      const read = await client.readResource({ uri: PATCH });
      assert.equal(read.contents[0].text, '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+two\n');
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'session changes (client 2.4.0)');
  });
});
