// mcp-edit driven by the MCP Inspector CLI (@modelcontextprotocol/inspector-cli), a client without
// elicitation that calls logging/setLevel as soon as it sees the logging capability.
//
// Notes on the CLI (see /tmp/findings-clients.md): the `mcp-inspector-cli` bin needs `--cli`
// (without it, it tries to start the web UI, which the package does not ship); it only finds its
// own package.json when `<cwd>/../package.json` exists, so it runs with cwd = its build/ folder;
// its own options (--log-level, --transport, ...) are consumed, other flags pass to the server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  BINARY, TAP, assertNoProblems, assertReadResult, assertReadTool, makeTempDir, requireBinary,
  validateTapDir, writeFixtures, show, inspectorBin, outsideRootsRe,
} from './helpers.mjs';

requireBinary();
const INSPECTOR_BIN = inspectorBin();
const root = makeTempDir();
const fixtures = writeFixtures(root);

/** Runs the inspector CLI against the tapped server; returns {stdout, stderr, code, tapDir}. */
function inspector(methodArgs) {
  const tapDir = makeTempDir('mcp-edit-e2e-tap-');
  const argv = [INSPECTOR_BIN, '--cli', process.execPath, TAP, tapDir, BINARY, '--root', root, '--no-fsync', ...methodArgs];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: path.dirname(INSPECTOR_BIN), timeout: 30000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? (err.code ?? 1) : 0, tapDir, argv }));
  });
}

function parseOutput(run, what) {
  assert.equal(run.code, 0, `inspector ${what} exited ${run.code}\nstderr: ${run.stderr.slice(-2000)}\nstdout: ${run.stdout.slice(0, 1000)}`);
  try {
    return JSON.parse(run.stdout);
  } catch (e) {
    assert.fail(`inspector ${what}: stdout is not JSON (${e.message}): ${run.stdout.slice(0, 1000)}`);
  }
}

function checkTranscript(run, what) {
  const { connections, problems } = validateTapDir(run.tapDir);
  assertNoProblems(problems, `inspector ${what}`);
  assert.equal(connections.length, 1, `inspector ${what}: expected one server process, got ${connections.length}`);
  const msgs = connections[0].messages;
  const setLevel = msgs.find((m) => m.dir === 'c2s' && m.msg?.method === 'logging/setLevel');
  assert.ok(setLevel, 'the inspector calls logging/setLevel when capabilities.logging is advertised');
  const reply = msgs.find((m) => m.dir === 's2c' && m.msg?.id === setLevel.msg.id);
  assert.deepEqual(reply?.msg?.result, {}, `logging/setLevel must answer {}: ${show(reply?.msg)}`);
  return connections[0];
}

describe('MCP Inspector CLI', () => {
  test('--method tools/list', async () => {
    const run = await inspector(['--method', 'tools/list']);
    const out = parseOutput(run, 'tools/list');
    assert.ok(Array.isArray(out.tools), `tools/list output: ${run.stdout.slice(0, 500)}`);
    assertReadTool(out.tools, 'inspector tools/list');
    checkTranscript(run, 'tools/list');
  });

  test('--method tools/call --tool-name read --tool-arg file_path=...', async () => {
    const fx = fixtures['crlf.txt'];
    const run = await inspector(['--method', 'tools/call', '--tool-name', 'read', '--tool-arg', `file_path=${fx.path}`]);
    const out = parseOutput(run, 'tools/call read');
    assertReadResult(out, fx, { file_path: fx.path }, 'crlf.txt (inspector)');
    checkTranscript(run, 'tools/call read');
  });

  test('--tool-arg offset/limit arrive as integers', async () => {
    const fx = fixtures['long.txt'];
    const run = await inspector(['--method', 'tools/call', '--tool-name', 'read',
      '--tool-arg', `file_path=${fx.path}`, 'offset=10', 'limit=3']);
    const out = parseOutput(run, 'tools/call read offset/limit');
    assertReadResult(out, fx, { file_path: fx.path, offset: 10, limit: 3 }, 'long.txt 10..12 (inspector)');
    checkTranscript(run, 'tools/call read offset/limit');
  });

  test('a refused path is a tool error the CLI prints (exit 0, isError true)', async () => {
    const run = await inspector(['--method', 'tools/call', '--tool-name', 'read', '--tool-arg', 'file_path=/etc/hostname']);
    const out = parseOutput(run, 'tools/call read outside the root');
    assert.equal(out.isError, true, `outside the root must be isError: ${run.stdout.slice(0, 500)}`);
    assert.match(out.content?.[0]?.text ?? '', outsideRootsRe('/etc/hostname', root), `the refusal must say the path is outside the root, naming it; it says ${show(out.content?.[0]?.text)}`);
    checkTranscript(run, 'tools/call read outside the root');
  });
});
