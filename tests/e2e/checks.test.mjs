// Post-write checks (--check) through the official SDK 1.x client: a JSON file broken by an edit
// is written and the check reports it with a diagnostic (structuredContent valid against the
// tool's outputSchema, content[0] carrying the same); fixing it reports the error fixed; a call
// cancelled while its check runs stops the check, and the file's next change is not held up.
// Every server line is validated against the MCP schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  assertFile, assertNoProblems, descendants, drain, makeTempDir, outputValidator, pollUntil, processRuns, requireBinary,
  serverBehindTap, tappedServer, textOf, validateTapDir,
} from './helpers.mjs';

requireBinary();
const show = (v) => JSON.stringify(v);

async function connect(dir, tap, extraArgs, label) {
  const tr = new StdioClientTransport(tappedServer(dir, tap, extraArgs));
  const stderr = drain(tr.stderr);
  const client = new Client({ name: `mcp-edit-e2e-${label}`, version: '0.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { decision: 'apply' } }));
  await client.connect(tr);
  const { tools } = await client.listTools();
  const validators = Object.fromEntries(tools.map((t) => [t.name, outputValidator(t)]));
  return { client, stderr, validators, tr };
}

describe('post-write checks', { concurrency: true }, () => {
  test('SDK 1.x: a JSON file broken by an edit is reported with a new diagnostic; the fix reports it fixed', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{\n  "name": "demo",\n  "port": 8080\n}\n');
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const { client, validators } = await connect(dir, tap, ['--check', '*.json=python3 -m json.tool {file}'], 'checks');
    const call = async (name, args) => {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 20000 });
      assert.notEqual(r.isError, true, `${name}: a failing check is not an error: ${show(r).slice(0, 600)}`);
      const problem = validators[name](r.structuredContent);
      assert.equal(problem, null, `${name}: structuredContent must match the outputSchema: ${problem}`);
      return r;
    };
    try {
      const broken = await call('edit', { file_path: file, old_string: '"name": "demo",', new_string: '"name": "demo"' });
      assertFile(file, '{\n  "name": "demo"\n  "port": 8080\n}\n', 'the broken edit is written');
      const sc = broken.structuredContent;
      assert.equal(sc.approval, 'user');
      assert.equal(sc.checks.length, 1, show(sc.checks));
      const check = sc.checks[0];
      assert.equal(check.command, 'python3 -m json.tool {file}');
      assert.equal(check.file, file);
      assert.equal(check.exit_code, 1);
      assert.equal(check.timed_out, false);
      assert.equal(check.compared, true);
      assert.deepEqual(check.diagnostics, [{ file, line: 3, column: 3, severity: 'error', message: "Expecting ',' delimiter", new: true }]);
      assert.deepEqual(check.fixed, []);
      assert.match(sc.summary, /^Changed settings\.json .*The change is written; its check .* on settings\.json failed \(exit 1\): 1 new error\./);
      const text = textOf(broken);
      assert.ok(text.startsWith(sc.summary), `content[0] starts with the summary: ${show(text.slice(0, 300))}`);
      assert.match(text, /new error at settings\.json:3:3: Expecting ',' delimiter/);

      const fixed = await call('edit', { file_path: file, old_string: '"name": "demo"\n', new_string: '"name": "demo",\n' });
      const again = fixed.structuredContent.checks[0];
      assert.equal(again.exit_code, 0);
      assert.equal(again.status, 'passed');
      assert.deepEqual(again.diagnostics, []);
      assert.equal(again.fixed.length, 1);
      assert.equal(again.fixed[0].message, "Expecting ',' delimiter");
      assert.match(fixed.structuredContent.summary, /on settings\.json passed: nothing new, 1 fixed\./);

      const dry = await call('edit', { file_path: file, old_string: '8080', new_string: '80 80', dry_run: true });
      assert.equal(dry.structuredContent.checks, undefined, 'a dry run runs no check');
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'checks (SDK 1.x)');
  });

  test('SDK 1.x: cancelling the call stops its check; the next change of the file is not held up', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'slow.txt');
    fs.writeFileSync(file, 'one\n');
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    // The check sleeps 30 s while slow.flag exists: only the first edit's checks are slow.
    const flag = path.join(dir, 'slow.flag');
    fs.writeFileSync(flag, '');
    const { client, tr } = await connect(dir, tap, ['--approval', 'auto', '--check',
      'slow.txt=sh -c \'test -e slow.flag && sleep 30; true\' sh {file}', '--check-timeout', '60'], 'checks-cancel');
    try {
      const server = await serverBehindTap(tr.pid);
      const abort = new AbortController();
      const pending = client.callTool({ name: 'edit', arguments: { file_path: file, old_string: 'one', new_string: 'two' } },
        undefined, { signal: abort.signal, timeout: 60000 });
      pending.catch(() => {});
      // The check runs: its `sh` and the `sleep 30` under it are the server's descendants.
      const check = await pollUntil(() => {
        const procs = descendants(server);
        return procs.some((p) => /^sleep 30$/.test(p.cmdline)) && procs;
      }, { timeout: 20000, what: `the check's "sleep 30" under the server (pid ${server})` });
      abort.abort('enough');
      await assert.rejects(pending, /enough|abort/i);
      // Cancelled, the check is stopped: every process of it ends (not only its sh).
      await pollUntil(() => !check.some((p) => processRuns(p.pid)), {
        timeout: 10000,
        what: () => `the cancelled check's processes to end; still running: ${show(check.filter((p) => processRuns(p.pid)))}`,
      });
      fs.rmSync(flag);
      // The same file's next change waits for the first call's lane: freed, it does not wait for
      // the 30 s sleep (the call's own deadline is 20 s).
      const next = await client.callTool({ name: 'edit', arguments: { file_path: file, old_string: 'two', new_string: 'three' } },
        undefined, { timeout: 20000 });
      assert.notEqual(next.isError, true, show(next).slice(0, 300));
      assert.equal(next.structuredContent.checks[0].status, 'passed', show(next.structuredContent.checks));
      assertFile(file, 'three\n', 'both edits are written');
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'checks cancelled (SDK 1.x)');
  });
});
