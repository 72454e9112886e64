// --lsp through both official clients: a language server (tests/fake_lsp, which reports every
// "ERROR:" and "WARNING:" line; its --ask flag makes it ask the client for configuration and
// progress first, as real servers do) is started by the first matching change and told the file
// before and after it. The result's checks entry says what the change introduced and fixed, it is
// valid against the tool's outputSchema, a CRLF file stays CRLF, and when the session ends the
// server is told shutdown and exit. Every server line is validated against the MCP schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernTransport } from '@modelcontextprotocol/client/stdio';
import {
  assertFile, assertNoProblems, makeTempDir, outputValidator, requireBinary, show, sleep, tappedServer, textOf, validateTapDir,
} from './helpers.mjs';

requireBinary();
const FAKE_LSP = process.env.MCP_EDIT_FAKE_LSP || path.resolve('..', '..', 'build', 'tests', 'fake-lsp');

async function waitForFile(file, text, ms = 5000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(text)) return;
    await sleep(50);
  }
  assert.fail(`${file} never held ${show(text)}: ${fs.existsSync(file) ? show(fs.readFileSync(file, 'utf8')) : 'missing'}`);
}

const eras = [
  ['SDK 1.x (legacy era)', LegacyClient, LegacyTransport, {}],
  ['client 2.4.0 (2026-07-28)', ModernClient, ModernTransport, { versionNegotiation: { mode: 'auto' } }],
];

describe('--lsp: a language server reports what a change introduced and fixed', { concurrency: true }, () => {
  for (const [era, Client, Transport, options] of eras) {
    test(era, async () => {
      assert.ok(fs.existsSync(FAKE_LSP), `the test language server is built: ${FAKE_LSP}`);
      const dir = makeTempDir();
      const file = path.join(dir, 'main.c');
      fs.writeFileSync(file, 'int main(void) {\r\n  ERROR: old\r\n  return 0;\r\n}\r\n');
      const log = path.join(makeTempDir('mcp-edit-e2e-lsp-log-'), 'methods');
      const tap = makeTempDir('mcp-edit-e2e-tap-');
      const transport = new Transport(tappedServer(dir, tap, ['--approval', 'auto', '--lsp', `*.c=${FAKE_LSP} --ask --log ${log}`]));
      const client = new Client({ name: 'mcp-edit-e2e-lsp', version: '0.0.0' }, options);
      await client.connect(transport);
      const { tools } = await client.listTools();
      const valid = outputValidator(tools.find((t) => t.name === 'edit'));
      try {
        const r = await client.callTool({ name: 'edit', arguments: { file_path: file, old_string: 'ERROR: old', new_string: 'ERROR: new' } },
          undefined, { timeout: 20000 });
        assert.notEqual(r.isError, true, show(r).slice(0, 600));
        assert.equal(valid(r.structuredContent), null, 'structuredContent matches the outputSchema');
        assertFile(file, 'int main(void) {\r\n  ERROR: new\r\n  return 0;\r\n}\r\n', 'written, CRLF kept');
        const [check, ...more] = r.structuredContent.checks;
        assert.equal(more.length, 0, show(r.structuredContent.checks));
        assert.equal(check.language_server, true);
        assert.equal(check.exit_code, null);
        assert.equal(check.status, 'failed');
        assert.equal(check.compared, true);
        assert.deepEqual(check.diagnostics, [{ file, line: 2, column: 3, severity: 'error', message: 'new', new: true }]);
        assert.deepEqual(check.fixed, [{ file, line: 2, column: 3, severity: 'error', message: 'old' }]);
        assert.match(r.structuredContent.summary, /\(language server\) on main\.c reported: 1 new error, 1 fixed\.$/);
        assert.match(textOf(r), /\nnew error at main\.c:2:3: new\nfixed error \(was at main\.c:2:3\): old\n/);

        const fixed = await client.callTool({ name: 'edit', arguments: { file_path: file, old_string: '  ERROR: new\r\n', new_string: '' } },
          undefined, { timeout: 20000 });
        assert.equal(valid(fixed.structuredContent), null);
        assert.equal(fixed.structuredContent.checks[0].status, 'passed', show(fixed.structuredContent.checks));
        assert.match(fixed.structuredContent.summary, /reported no errors: nothing new, 1 fixed\.$/);
      } finally {
        await client.close().catch(() => {});
      }
      await waitForFile(log, 'exit\n');
      const methods = fs.readFileSync(log, 'utf8').trim().split('\n');
      assert.equal(methods.filter((m) => m === '(answer)').length, 2, `both of its requests answered: ${show(methods)}`);
      assert.deepEqual(methods.filter((m) => m !== '(answer)'), ['initialize', 'initialized', 'textDocument/didOpen',
        'textDocument/didChange', 'textDocument/didChange', 'shutdown', 'exit'],
      'started once, the pre-image told once (the second change starts from what it knows), shut down at the end');
      assertNoProblems(validateTapDir(tap).problems, `--lsp (${era})`);
    });
  }
});
