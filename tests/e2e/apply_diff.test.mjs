// apply_diff through the official SDK 1.32.2 client: each format (SEARCH/REPLACE, unified diff,
// *** Begin Patch), byte-exact results on CRLF/BOM/no-final-newline files, the :start_line: hint,
// escaped markers, multi-file all-or-nothing, create/delete/move, dry run, and every server line
// validated against the schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  assertNoProblems, drain, makeTempDir, outputValidator, requireBinary, tappedServer,
  validateTapDir, show, outsideRootsRe,
} from './helpers.mjs';

requireBinary();
const root = makeTempDir();
const tapDir = makeTempDir('mcp-edit-e2e-tap-');
let client;
let validate;
const file = (name) => path.join(root, name);
const put = (name, latin1) => {
  fs.mkdirSync(path.dirname(file(name)), { recursive: true });
  fs.writeFileSync(file(name), Buffer.from(latin1, 'latin1'));
};
const bytes = (name) => fs.readFileSync(file(name), 'latin1');

before(async () => {
  const transport = new StdioClientTransport(tappedServer(root, tapDir));
  drain(transport.stderr);
  client = new Client({ name: 'mcp-edit-e2e-apply-diff', version: '0.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'apply_diff');
  assert.ok(tool, 'tools/list has no apply_diff');
  validate = outputValidator(tool);
});

after(async () => {
  await client?.close().catch(() => {});
  assertNoProblems(validateTapDir(tapDir).problems, 'apply_diff session: server lines vs the schema');
});

async function apply(args) {
  const r = await client.callTool({ name: 'apply_diff', arguments: args }, undefined, { timeout: 10000 });
  if (!r.isError) assert.equal(validate(r.structuredContent), null, `structuredContent breaks the outputSchema: ${show(r.structuredContent)}`);
  return r;
}
async function ok(args) {
  const r = await apply(args);
  assert.ok(!r.isError, `apply_diff failed: ${r.content?.[0]?.text}`);
  return r.structuredContent;
}
async function fails(args, pattern) {
  const r = await apply(args);
  assert.equal(r.isError, true, `apply_diff should fail: ${show(r.structuredContent)}`);
  assert.match(r.content[0].text, pattern);
  return r.content[0].text;
}

const sr = (search, replace, startLine) =>
  `<<<<<<< SEARCH\n${startLine ? `:start_line:${startLine}\n-------\n` : ''}${search}=======\n${replace}>>>>>>> REPLACE\n`;

test('SEARCH/REPLACE on a CRLF file with a BOM and no final newline', async () => {
  put('sr.txt', '\xef\xbb\xbfone\r\ntwo\r\nthree');
  const s = await ok({ file_path: 'sr.txt', diff: sr('two\n', 'TWO\nand a half\n', 2) + sr('three\n', 'THREE\n') });
  assert.equal(s.format, 'search_replace');
  assert.equal(s.blocks_applied, 2);
  assert.equal(bytes('sr.txt'), '\xef\xbb\xbfone\r\nTWO\r\nand a half\r\nTHREE');
});

test('SEARCH/REPLACE: duplicates need a hint; a hint picks the nearest; a wrong hint with a unique match still applies', async () => {
  put('dup.txt', 'x = 1\ny = 2\nx = 1\n');
  await fails({ file_path: 'dup.txt', diff: sr('x = 1\n', 'x = 9\n') }, /2 places|lines 1.*3/s);
  assert.equal(bytes('dup.txt'), 'x = 1\ny = 2\nx = 1\n');
  const s = await ok({ file_path: 'dup.txt', diff: sr('x = 1\n', 'x = 9\n', 3) });
  assert.equal(s.blocks[0].line, 3);
  assert.equal(bytes('dup.txt'), 'x = 1\ny = 2\nx = 9\n');
  await ok({ file_path: 'dup.txt', diff: sr('y = 2\n', 'y = 3\n', 40) });
  assert.equal(bytes('dup.txt'), 'x = 1\ny = 3\nx = 9\n');
});

test('SEARCH/REPLACE: escaped markers are unescaped; malformed blocks name their line', async () => {
  put('md.txt', 'title\n=======\nbody\n');
  await ok({ file_path: 'md.txt', diff: sr('title\n\\=======\n', 'Title\n\\=======\n') });
  assert.equal(bytes('md.txt'), 'Title\n=======\nbody\n');
  await fails({ file_path: 'md.txt', diff: '<<<<<<< SEARCH\nbody\n>>>>>>> REPLACE\n' }, /line/);
  await fails({ diff: sr('body\n', 'BODY\n') }, /file_path/);
});

test('unified diff over several files: create, update, delete; numbers off still apply', async () => {
  put('u/a.txt', 'a1\na2\na3\na4\n');
  put('u/gone.txt', 'bye\n');
  const diff = [
    'diff --git a/u/a.txt b/u/a.txt', '--- a/u/a.txt', '+++ b/u/a.txt', '@@ -10,3 +10,3 @@', ' a2', '-a3', '+A3', ' a4',
    '--- /dev/null', '+++ b/u/new.txt', '@@ -0,0 +1,2 @@', '+n1', '+n2',
    '--- a/u/gone.txt', '+++ /dev/null', '@@ -1 +0,0 @@', '-bye', ''].join('\n');
  const s = await ok({ diff });
  assert.equal(s.format, 'unified');
  assert.equal(bytes('u/a.txt'), 'a1\na2\nA3\na4\n');
  assert.equal(bytes('u/new.txt'), 'n1\nn2\n');
  assert.equal(fs.existsSync(file('u/gone.txt')), false);
  const byPath = Object.fromEntries(s.files.map((f) => [path.basename(f.file_path), f]));
  assert.equal(byPath['new.txt'].created, true);
  assert.equal(byPath['gone.txt'].deleted, true);
  assert.match(byPath['new.txt'].diff, /^--- \/dev\/null\n\+\+\+ b\/u\/new\.txt\n@@ -0,0 \+1,2 @@/);
  assert.match(byPath['gone.txt'].diff, /^--- a\/u\/gone\.txt\n\+\+\+ \/dev\/null/);
});

test('unified diff honours \\ No newline at end of file', async () => {
  put('nl.txt', 'x\ny\n');
  await ok({ diff: '--- a/nl.txt\n+++ b/nl.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n\\ No newline at end of file\n' });
  assert.equal(bytes('nl.txt'), 'x\nz');
});

test('a failing last file writes nothing anywhere', async () => {
  put('t/one.txt', 'one\n');
  put('t/two.txt', 'two\n');
  const diff = '--- a/t/one.txt\n+++ b/t/one.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- /dev/null\n+++ b/t/three.txt\n@@ -0,0 +1 @@\n+3\n' +
    '--- a/t/two.txt\n+++ b/t/two.txt\n@@ -1 +1 @@\n-not there\n+TWO\n';
  const text = await fails({ diff }, /two\.txt/);
  assert.match(text, /no file was changed/i);
  assert.equal(bytes('t/one.txt'), 'one\n');
  assert.equal(bytes('t/two.txt'), 'two\n');
  assert.equal(fs.existsSync(file('t/three.txt')), false);
});

test('*** Begin Patch: add, update with move, delete', async () => {
  put('p/src.txt', 'keep\nold line\nkeep too\n');
  put('p/del.txt', 'delete me\n');
  const diff = ['*** Begin Patch', '*** Add File: p/added.txt', '+hello', '+world',
    '*** Update File: p/src.txt', '*** Move to: p/dst.txt', '@@', ' keep', '-old line', '+new line',
    '*** Delete File: p/del.txt', '*** End Patch', ''].join('\n');
  // Deleting a file without showing its content needs it read first (as write does).
  await client.callTool({ name: 'read', arguments: { file_path: file('p/del.txt') } });
  const s = await ok({ diff });
  assert.equal(s.format, 'apply_patch');
  assert.equal(bytes('p/added.txt'), 'hello\nworld\n');
  assert.equal(bytes('p/dst.txt'), 'keep\nnew line\nkeep too\n');
  assert.equal(fs.existsSync(file('p/src.txt')), false);
  assert.equal(fs.existsSync(file('p/del.txt')), false);
  const moved = s.files.find((f) => f.moved_from);
  assert.ok(moved && moved.file_path.endsWith('p/dst.txt') && moved.moved_from.endsWith('p/src.txt'), `move entry: ${show(s.files)}`);
});

test('dry run shows the diff and writes nothing', async () => {
  put('dry.txt', 'a\nb\n');
  const s = await ok({ file_path: 'dry.txt', diff: sr('b\n', 'B\n'), dry_run: true });
  assert.equal(s.dry_run, true);
  assert.equal(s.approval, 'none');
  assert.match(s.files[0].diff, /-b\n\+B/);
  assert.equal(bytes('dry.txt'), 'a\nb\n');
});

test('paths outside the roots are refused before anything is written', async () => {
  put('in.txt', 'in\n');
  const diff = '--- a/in.txt\n+++ b/in.txt\n@@ -1 +1 @@\n-in\n+IN\n--- a/../outside.txt\n+++ b/../outside.txt\n@@ -1 +1 @@\n-x\n+y\n';
  await fails({ diff }, outsideRootsRe('../outside.txt', root));
  assert.equal(bytes('in.txt'), 'in\n');
});

test('fuzzy without :start_line: goes to the most similar place of the whole file, or nowhere', async () => {
  // issue 10: a near copy at lines 1-30 (about 0.86) took the block meant for 2501-2530 (about 0.98).
  const entry = (j, tail = 'defaults') => `    config.entry_${j} = parse_value("option-${j}", ${tail});`;
  const lines = [];
  for (let i = 1; i <= 3000; i++) {
    if (i <= 30) lines.push(entry(i - 1, 'fallback'));
    else if (i >= 2501 && i <= 2530) lines.push(entry(i - 2501));
    else lines.push(`    record_${i}.value = lookup(table, ${(i * 7) % 1000}) + offset;`);
  }
  put('far.txt', lines.join('\n') + '\n');
  let search = '';
  let replace = '';
  for (let j = 0; j < 30; j++) {
    const l = entry(j);
    const at = 6 + (j % 20);
    search += l.slice(0, at) + (l[at] === 'x' ? 'y' : 'x') + l.slice(at + 1) + '\n';
    replace += `    config.entry_${j} = 0;\n`;
  }
  const s = await ok({ file_path: 'far.txt', diff: sr(search, replace), fuzzy_threshold: 0.8 });
  assert.equal(s.blocks[0].match, 'fuzzy');
  assert.equal(s.blocks[0].line, 2501);
  assert.ok(s.blocks[0].similarity > 0.97, `similarity ${s.blocks[0].similarity}`);
  const after = bytes('far.txt').split('\n');
  assert.equal(after[0], entry(0, 'fallback'));
  assert.equal(after[2500], '    config.entry_0 = 0;');

  // Two places about as similar: refused, both named, and the call that would work.
  put('twice.txt', [entry(0), entry(1), 'x', entry(0, 'default'), entry(1, 'default'), ''].join('\n'));
  const two = search.split('\n').slice(0, 2).join('\n') + '\n';
  const text = await fails({ file_path: 'twice.txt', diff: sr(two, 'gone\n'), fuzzy_threshold: 0.8 },
    /2 places in the file are about as like it: lines 1-2 \(0\.98\), and lines 4-5 \(0\.96\)\. A similar place is used only when it is at least 0\.05 more similar than any other, so nothing was applied\. Give :start_line:/);
  assert.match(text, /:start_line:1 right after <<<<<<< SEARCH/);
  assert.ok(bytes('twice.txt').startsWith(entry(0)));
});

test('fuzzy matching only when asked, and reported', async () => {
  put('fz.txt', 'function total(items) {\n  return items.reduce((a, b) => a + b, 0);\n}\n');
  const block = sr('function totl(itemz) {\n  return items.reduce((a, b) => a + b, 0);\n}\n', 'function total(items) {\n  return items.reduce((a, b) => a + b, 1);\n}\n', 1);
  await fails({ file_path: 'fz.txt', diff: block }, /not found|not applied/i);
  const s = await ok({ file_path: 'fz.txt', diff: block, fuzzy_threshold: 0.8 });
  assert.equal(s.blocks[0].match, 'fuzzy');
  assert.ok(s.blocks[0].similarity >= 0.8 && s.blocks[0].similarity < 1, `similarity ${s.blocks[0].similarity}`);
  assert.match(bytes('fz.txt'), /a \+ b, 1\)/);
});
