// The approval gate with the MCP Inspector CLI, a client that cannot show forms (no elicitation
// capability): `--approval ask` applies and says so, `require` refuses, `auto` applies.
// Each run is one CLI process against a tapped server; the file on disk is compared byte for byte
// afterwards and every server line is validated. (How the CLI must be run: inspector_cli.test.mjs.)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  BINARY, TAP, assertNoProblems, makeTempDir, requireBinary, validateTapDir, assertFile, textOf,
  show, ORIGINAL, EDITED, inspectorBin,
} from './helpers.mjs';

requireBinary();
const INSPECTOR_BIN = inspectorBin();



/** One CLI run: `--method tools/call --tool-name TOOL --tool-arg k=v ...` against a fresh tapped server. */
function inspectorCall(root, serverArgs, tool, toolArgs) {
  const tapDir = makeTempDir('mcp-edit-e2e-tap-');
  const pairs = Object.entries(toolArgs).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  const argv = [INSPECTOR_BIN, '--cli', process.execPath, TAP, tapDir, BINARY, '--root', root, '--no-fsync', ...serverArgs,
    '--method', 'tools/call', '--tool-name', tool, '--tool-arg', ...pairs];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: path.dirname(INSPECTOR_BIN), timeout: 30000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? (err.code ?? 1) : 0, tapDir, argv }));
  });
}

/** Parses the CLI output, validates the transcript; returns {result, conn}. */
function finish(run, what, tool, toolArgs) {
  assert.equal(run.code, 0, `inspector ${what} exited ${run.code}\nstderr: ${run.stderr.slice(-2000)}\nstdout: ${run.stdout.slice(0, 1000)}`);
  let result;
  try {
    result = JSON.parse(run.stdout);
  } catch (e) {
    assert.fail(`inspector ${what}: stdout is not JSON (${e.message}): ${run.stdout.slice(0, 1000)}`);
  }
  const { connections, problems } = validateTapDir(run.tapDir);
  assertNoProblems(problems, `inspector ${what}`);
  assert.equal(connections.length, 1, `inspector ${what}: expected one server process, got ${connections.length}`);
  const conn = connections[0];
  const init = conn.messages.find((m) => m.dir === 'c2s' && m.msg?.method === 'initialize');
  assert.ok(init, `inspector ${what}: no initialize in the transcript`);
  assert.ok(!('elicitation' in (init.msg.params?.capabilities ?? {})),
    `premise: the Inspector CLI must not declare elicitation, it sent ${show(init.msg.params?.capabilities)}`);
  const asks = conn.messages.filter((m) => m.dir === 's2c' && m.msg?.method === 'elicitation/create');
  assert.deepEqual(asks, [], `inspector ${what}: no elicitation/create to a client that did not declare it`);
  const call = conn.messages.find((m) => m.dir === 'c2s' && m.msg?.method === 'tools/call');
  assert.deepEqual(call?.msg?.params?.arguments, toolArgs, `inspector ${what}: the CLI must send the arguments unchanged`);
  assert.equal(call.msg.params.name, tool);
  return { result, conn };
}

function assertWrittenByPolicy(r, what, { saysNotAsked }) {
  assert.notEqual(r?.isError, true, `${what}: must succeed, got ${show(r).slice(0, 600)}`);
  assert.equal(r?.structuredContent?.approval, 'policy', `${what}: structuredContent.approval must be "policy", got ${show(r?.structuredContent?.approval)}`);
  if (saysNotAsked) assert.match(textOf(r), /without asking/i, `${what}: the summary must say it was written without asking: ${show(textOf(r))}`);
}

function assertRefused(r, what) {
  assert.equal(r?.isError, true, `${what}: must be isError: true, got ${show(r).slice(0, 600)}`);
  const t = textOf(r);
  assert.match(t, /nothing (was )?written/i, `${what}: the text must say nothing was written: ${show(t)}`);
  assert.match(t, /require/i, `${what}: the text must name the --approval require policy: ${show(t)}`);
}

describe('Inspector CLI (no elicitation) under each --approval policy', { concurrency: true }, () => {
  const policies = [
    ['ask (default)', [], 'written'],
    ['ask (explicit)', ['--approval', 'ask'], 'written'],
    ['require', ['--approval', 'require'], 'refused'],
    ['auto', ['--approval', 'auto'], 'written'],
  ];
  for (const [label, serverArgs, outcome] of policies) {
    test(`edit under ${label}: ${outcome}`, async () => {
      const root = makeTempDir();
      const file = path.join(root, 'target.txt');
      fs.writeFileSync(file, ORIGINAL);
      const args = { file_path: file, old_string: 'two', new_string: 'TWO' };
      const run = await inspectorCall(root, serverArgs, 'edit', args);
      const { result } = finish(run, `edit (${label})`, 'edit', args);
      if (outcome === 'written') {
        assertWrittenByPolicy(result, `edit under ${label}`, { saysNotAsked: !serverArgs.includes('auto') });
        assert.match(textOf(result), /^-two$/m, `the result still carries the diff: ${show(textOf(result))}`);
        assertFile(file, EDITED, `edit under ${label}`);
      } else {
        assertRefused(result, `edit under ${label}`);
        assertFile(file, ORIGINAL, `edit under ${label}`);
      }
    });

    test(`write (create) under ${label}: ${outcome}`, async () => {
      const root = makeTempDir();
      const file = path.join(root, 'new', 'created.txt');
      const args = { file_path: file, content: 'first\nsecond\n' };
      const run = await inspectorCall(root, serverArgs, 'write', args);
      const { result } = finish(run, `write (${label})`, 'write', args);
      if (outcome === 'written') {
        assertWrittenByPolicy(result, `write under ${label}`, { saysNotAsked: !serverArgs.includes('auto') });
        assert.equal(result.structuredContent.created, true, `write must report created: ${show(result.structuredContent)}`);
        assertFile(file, 'first\nsecond\n', `write under ${label}`);
      } else {
        assertRefused(result, `write under ${label}`);
        assertFile(file, null, `write under ${label}`);
      }
    });
  }

  test('a dry run under require needs no approval: the diff, nothing written', async () => {
    const root = makeTempDir();
    const file = path.join(root, 'target.txt');
    fs.writeFileSync(file, ORIGINAL);
    const args = { file_path: file, old_string: 'two', new_string: 'TWO', dry_run: true };
    const run = await inspectorCall(root, ['--approval', 'require'], 'edit', args);
    const { result } = finish(run, 'dry run (require)', 'edit', args);
    assert.notEqual(result.isError, true, `a dry run under require must succeed: ${show(result).slice(0, 500)}`);
    assert.equal(result.structuredContent?.approval, 'none', `dry run approval: ${show(result.structuredContent)}`);
    assert.equal(result.structuredContent?.dry_run, true, `dry_run: ${show(result.structuredContent)}`);
    assert.match(result.structuredContent?.diff ?? '', /^\+TWO$/m, `the dry run's diff: ${show(result.structuredContent?.diff)}`);
    assertFile(file, ORIGINAL, 'dry run under require');
  });
});
