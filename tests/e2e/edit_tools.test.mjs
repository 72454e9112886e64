// The editing tools (edit, multiedit, write, insert) through both official clients: the SDK
// 1.32.2 (legacy era) and client 2.4.0 (2026-07-28). Each case checks the bytes on disk, the
// structuredContent against the tool's outputSchema, and every server line against the schema.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernTransport } from '@modelcontextprotocol/client/stdio';
import {
  assertNoProblems, drain, makeTempDir, outputValidator, requireBinary, tappedServer,
  validateTapDir, show,
} from './helpers.mjs';

requireBinary();
const OPTS = { timeout: 10000 };
const BOM = '\xef\xbb\xbf';

// Fixtures as latin1 strings: each character is one byte.
const FIXTURES = {
  'crlf.txt': 'alpha\r\nbeta\r\ngamma\r\n',
  'mixed.txt': 'one\ntwo\r\nthree\rfour\n',
  'bom.txt': `${BOM}first\nsecond`,
  'latin1.txt': 'na\xefve = old\n\xe9t\xe9\n',
  'tabs.go': 'func f() {\n\treturn 1\n}\n',
  'dup.txt': 'same\nsame\n',
  'nofinal.txt': 'a\nb',
  'unread.txt': 'keep me\n',
  'bin.dat': 'a\x00b',
  'utf16.txt': '\xff\xfeh\x00i\x00',
  'utf32.txt': '\xff\xfe\x00\x00h\x00\x00\x00',
};

function sha(bytes) {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

for (const era of ['legacy', 'modern']) {
  describe(`editing tools through the ${era === 'legacy' ? 'SDK 1.32.2 (legacy era)' : 'client 2.4.0 (2026-07-28)'}`, () => {
    const root = makeTempDir();
    const tapDir = makeTempDir('mcp-edit-e2e-tap-');
    let client;
    const validators = {};
    const file = (name) => path.join(root, name);
    const bytes = (name) => fs.readFileSync(file(name), 'latin1');

    before(async () => {
      for (const [name, content] of Object.entries(FIXTURES)) fs.writeFileSync(file(name), Buffer.from(content, 'latin1'));
      if (era === 'legacy') {
        const transport = new LegacyTransport(tappedServer(root, tapDir));
        drain(transport.stderr);
        client = new LegacyClient({ name: 'mcp-edit-e2e-edit', version: '0.0.0' });
        await client.connect(transport);
      } else {
        const transport = new ModernTransport(tappedServer(root, tapDir));
        drain(transport.stderr);
        client = new ModernClient({ name: 'mcp-edit-e2e-edit', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
        await client.connect(transport, { timeout: 10000 });
      }
      const { tools } = await client.listTools(undefined, OPTS);
      for (const t of tools) validators[t.name] = outputValidator(t);
      for (const name of ['edit', 'multiedit', 'write', 'insert'])
        assert.ok(validators[name], `tools/list lacks ${name}: ${show(tools.map((t) => t.name))}`);
    });

    after(async () => {
      await client?.close().catch(() => {});
      const { problems } = validateTapDir(tapDir);
      assertNoProblems(problems, `${era}: server messages vs the official schema`);
    });

    async function call(name, args) {
      const r = await client.callTool({ name, arguments: args }, undefined, OPTS);
      if (!r.isError) {
        const err = validators[name](r.structuredContent);
        assert.equal(err, null, `${name} ${show(args)}: structuredContent breaks the outputSchema: ${err}`);
      }
      return r;
    }
    async function ok(name, args) {
      const r = await call(name, args);
      assert.ok(!r.isError, `${name} ${show(args)} failed: ${r.content?.[0]?.text}`);
      // structuredContent alone (all some hosts show their model) has the summary and the diff.
      const sc = r.structuredContent;
      if (name === 'read') return r;
      assert.equal(sc.summary, r.content[0].text.split('\n\n')[0],
        `${name}: structuredContent.summary must be content[0]'s summary; got ${show(sc.summary)}`);
      assert.ok(r.content[0].text.includes(sc.diff), `${name}: content[0] must carry structuredContent's diff`);
      return r;
    }
    async function fails(name, args, pattern) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} ${show(args)} should fail, got ${show(r.structuredContent)}`);
      assert.match(r.content[0].text, pattern, `${name}: the error text does not say ${pattern}`);
      return r;
    }

    test('edit keeps CRLF and gives new lines the file\'s style', async () => {
      const r = await ok('edit', { file_path: 'crlf.txt', old_string: 'beta\n', new_string: 'beta\nbeta2\n' });
      assert.equal(bytes('crlf.txt'), 'alpha\r\nbeta\r\nbeta2\r\ngamma\r\n');
      assert.equal(r.structuredContent.match, 'exact');
      assert.equal(r.structuredContent.diff, '--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,3 +1,4 @@\n alpha\n beta\n+beta2\n gamma\n');
      assert.match(r.content[0].text, /^Changed crlf\.txt/);
      assert.ok(r.content[0].text.includes(r.structuredContent.diff), 'content[0] must carry the diff');
    });

    test('edit in a mixed-endings file touches only the replaced bytes', async () => {
      await ok('edit', { file_path: 'mixed.txt', old_string: 'three', new_string: 'THREE' });
      assert.equal(bytes('mixed.txt'), 'one\ntwo\r\nTHREE\rfour\n');
    });

    test('edit keeps the BOM and the missing final newline', async () => {
      await ok('edit', { file_path: 'bom.txt', old_string: 'second', new_string: 'SECOND' });
      assert.equal(bytes('bom.txt'), `${BOM}first\nSECOND`);
    });

    test('edit leaves Latin-1 bytes as they are', async () => {
      await ok('edit', { file_path: 'latin1.txt', old_string: '= old', new_string: '= new' });
      assert.equal(sha(fs.readFileSync(file('latin1.txt'))), sha(Buffer.from('na\xefve = new\n\xe9t\xe9\n', 'latin1')));
    });

    test('edit: indentation tier re-indents with tabs', async () => {
      const r = await ok('edit', { file_path: 'tabs.go', old_string: '    return 1', new_string: '    return 2' });
      assert.equal(r.structuredContent.match, 'indentation');
      assert.equal(bytes('tabs.go'), 'func f() {\n\treturn 2\n}\n');
    });

    test('edit: ambiguity lists the places; replace_all is literal', async () => {
      await fails('edit', { file_path: 'dup.txt', old_string: 'same', new_string: 'x' }, /2 places.*1, 2/s);
      assert.equal(bytes('dup.txt'), 'same\nsame\n');
      const r = await ok('edit', { file_path: 'dup.txt', old_string: 'same', new_string: '$& $1', replace_all: true });
      assert.equal(r.structuredContent.replacements, 2);
      assert.equal(bytes('dup.txt'), '$& $1\n$& $1\n');
    });

    test('edit: not found shows the closest region; already applied is said', async () => {
      await fails('edit', { file_path: 'crlf.txt', old_string: 'alpha\nbeta\ngamma-X', new_string: 'z' }, /line/);
      await fails('edit', { file_path: 'crlf.txt', old_string: 'beta-old\ngamma', new_string: 'beta2\ngamma' }, /already present/);
    });

    test('edit: dry run returns the diff and writes nothing', async () => {
      const before = bytes('crlf.txt');
      const r = await ok('edit', { file_path: 'crlf.txt', old_string: 'alpha', new_string: 'ALPHA', dry_run: true });
      assert.equal(r.structuredContent.dry_run, true);
      assert.equal(r.structuredContent.approval, 'none');
      assert.match(r.structuredContent.diff, /-alpha\n\+ALPHA/);
      assert.equal(bytes('crlf.txt'), before);
    });

    test('edit with an empty old_string creates a file and its folders', async () => {
      const r = await ok('edit', { file_path: 'made/here/new.txt', old_string: '', new_string: 'x\ny\n' });
      assert.equal(r.structuredContent.created, true);
      assert.equal(r.structuredContent.diff, '--- /dev/null\n+++ b/made/here/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n');
      assert.equal(bytes('made/here/new.txt'), 'x\ny\n');
    });

    test('multiedit: in order, all or nothing, errors name edits[i]', async () => {
      const before = bytes('crlf.txt');
      await fails('multiedit', { file_path: 'crlf.txt', edits: [
        { old_string: 'alpha', new_string: 'A' }, { old_string: 'missing', new_string: 'B' }] }, /edits\[1\]/);
      assert.equal(bytes('crlf.txt'), before, 'a failed multiedit must write nothing');
      const r = await ok('multiedit', { file_path: 'crlf.txt', edits: [
        { old_string: 'alpha', new_string: 'A1' }, { old_string: 'A1\nbeta\n', new_string: 'A1\nB1\n' }] });
      assert.deepEqual(r.structuredContent.matches, ['exact', 'exact']);
      assert.equal(bytes('crlf.txt'), 'A1\r\nB1\r\nbeta2\r\ngamma\r\n');
    });

    test('write: refused over an unread file, then allowed after read; CRLF kept', async () => {
      await fails('write', { file_path: 'unread.txt', content: 'gone\n' }, /read/);
      assert.equal(bytes('unread.txt'), 'keep me\n');
      await ok('read', { file_path: 'unread.txt' });
      await ok('write', { file_path: 'unread.txt', content: 'replaced\n' });
      assert.equal(bytes('unread.txt'), 'replaced\n');
      const r = await ok('write', { file_path: 'crlf.txt', content: 'w1\nw2\n' });
      assert.equal(bytes('crlf.txt'), 'w1\r\nw2\r\n');
      assert.ok(r.structuredContent.notes.some((n) => /CRLF/.test(n)), `notes: ${show(r.structuredContent.notes)}`);
    });

    test('write: refused when the file changed on disk since it was read', async () => {
      await ok('read', { file_path: 'unread.txt' });
      fs.writeFileSync(file('unread.txt'), 'changed behind our back\n');
      await fails('write', { file_path: 'unread.txt', content: 'mine\n' }, /changed/);
      assert.equal(bytes('unread.txt'), 'changed behind our back\n');
    });

    test('insert: -1 into a file without a final newline keeps it without one', async () => {
      const r = await ok('insert', { file_path: 'nofinal.txt', line: -1, text: 'c' });
      assert.equal(bytes('nofinal.txt'), 'a\nb\nc');
      assert.equal(r.structuredContent.first_changed_line, 2);
      await ok('insert', { file_path: 'nofinal.txt', line: 0, text: 'top\n' });
      assert.equal(bytes('nofinal.txt'), 'top\na\nb\nc');
      await fails('insert', { file_path: 'nofinal.txt', line: 50, text: 'x' }, /past the end/);
    });

    test('refusals: binary, UTF-32, outside the roots, missing file, bad arguments; UTF-16 is edited as UTF-16', async () => {
      await fails('edit', { file_path: 'bin.dat', old_string: 'a', new_string: 'b' }, /binary/);
      await fails('edit', { file_path: 'utf32.txt', old_string: 'h', new_string: 'x' }, /utf-32le.*UTF-32 files are not supported/i);
      await ok('edit', { file_path: 'utf16.txt', old_string: 'h', new_string: 'x' });
      assert.equal(bytes('utf16.txt'), '\xff\xfex\x00i\x00');
      await fails('edit', { file_path: '../../etc/hostname', old_string: 'a', new_string: 'b' }, /outside the allowed roots/);
      await fails('edit', { file_path: 'nope.txt', old_string: 'a', new_string: 'b' }, /not found/i);
      await fails('edit', { file_path: 'crlf.txt', old_string: 1, new_string: 'b' }, /\/old_string/);
      assert.equal(bytes('bin.dat'), 'a\x00b');
    });

    test('aliases: path, old_str, new_str are accepted', async () => {
      await ok('edit', { path: 'tabs.go', old_str: 'return 2', new_str: 'return 3' });
      assert.equal(bytes('tabs.go'), 'func f() {\n\treturn 3\n}\n');
    });
  });
}
