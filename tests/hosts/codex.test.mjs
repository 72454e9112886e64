// Host test: OpenAI Codex CLI (`codex exec`, the pinned @openai/codex) driving mcp-edit.
//
// Codex runs non-interactively with a scratch HOME and CODEX_HOME whose config.toml points a custom
// model provider (Responses API) at mock_openai_responses.mjs and starts mcp-edit as the MCP server
// `edit`. The mock plays the model: tool calls first, then a final answer, and records each
// `function_call_output` Codex sends back, i.e. exactly what a real model would read. mcp-edit is
// started through a small stdio recorder (written into the scratch dir) so the test also sees the
// MCP traffic: what Codex declares in `initialize` and what it answers to an approval form.
//
// What Codex 0.169.0 does (see the assertions):
// - It offers MCP tools inside a Responses `namespace` tool `mcp__edit` (bare names read, edit, ...),
//   with the input schemas minus `minimum`, `maximum`, `default` and `maxItems`.
// - A tool result reaches the model as "Wall time: ... seconds\nOutput:\n" followed by the
//   structuredContent as compact JSON when there is one (content[] is then dropped), otherwise as
//   a list of input_text items: that header, then each content[] text. isError is not shown.
// - It speaks protocol 2025-06-18 (initialize), declares elicitation (form and url), no roots.
// - `codex exec` runs with approval policy "never": a tool not annotated readOnlyHint is refused by
//   Codex itself unless the server's `default_tools_approval_mode = "approve"`; a form that the
//   server sends is answered `decline` by Codex, with no human asked.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import {
  BIN, BINARY, ModelScript, hostEnv, requireBinary, runHost, scratch, serverArgs, shown,
} from './harness.mjs';
import { startResponsesMock, toolDef, toolNames } from './mock_openai_responses.mjs';

const SEVEN = ['apply_diff', 'edit', 'insert', 'multiedit', 'read', 'undo', 'write'];

// A stdio pass-through in front of mcp-edit that appends every line it relays to a JSONL file as
// {dir: "in" (Codex -> server) | "out" (server -> Codex), msg}. Written into the scratch dir.
const RECORDER = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const readline = require('node:readline');
const [log, bin, ...args] = process.argv.slice(2);
const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const note = (dir, line) => { let msg = line; try { msg = JSON.parse(line); } catch {} fs.appendFileSync(log, JSON.stringify({ dir, msg }) + '\\n'); };
readline.createInterface({ input: process.stdin }).on('line', (l) => { note('in', l); child.stdin.write(l + '\\n'); });
process.stdin.on('end', () => child.stdin.end());
readline.createInterface({ input: child.stdout }).on('line', (l) => { note('out', l); process.stdout.write(l + '\\n'); });
child.on('exit', (code) => process.exit(code ?? 1));
`;

/** A TOML string literal (JSON's escapes are valid TOML basic-string escapes). */
const tomlStr = (s) => JSON.stringify(s);

/**
 * One `codex exec` run: a fresh scratch project, the mock model playing `steps`, mcp-edit with
 * `approval` (ask | auto). `toolsApproval` is the server's default_tools_approval_mode in Codex's
 * config ("approve" lets Codex call mcp-edit's changing tools headless; null leaves Codex's default).
 */
async function runCodex(steps, { approval, toolsApproval = 'approve' }) {
  requireBinary();
  const s = scratch('mcp-edit-codex-');
  const script = new ModelScript(steps);
  const mock = await startResponsesMock(script);
  const codexHome = path.join(s.home, '.codex');
  fs.mkdirSync(codexHome);
  const recorder = path.join(s.base, 'recorder.cjs');
  const wireLog = path.join(s.base, 'wire.jsonl');
  fs.writeFileSync(recorder, RECORDER);
  fs.writeFileSync(path.join(codexHome, 'config.toml'), [
    'model = "mock-model"',
    'model_provider = "mock"',
    'approval_policy = "never"',
    'sandbox_mode = "workspace-write"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '# No plugin/app sync (it reaches for github.com and chatgpt.com at start-up).',
    '[features]',
    'plugins = false',
    'apps = false',
    '',
    '[model_providers.mock]',
    'name = "mock"',
    `base_url = ${tomlStr(mock.baseUrl)}`,
    'wire_api = "responses"',
    'env_key = "MOCK_OPENAI_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[mcp_servers.edit]',
    `command = ${tomlStr(process.execPath)}`,
    `args = [${[recorder, wireLog, BINARY, ...serverArgs(s.project, ['--approval', approval])].map(tomlStr).join(', ')}]`,
    'startup_timeout_sec = 30',
    'tool_timeout_sec = 60',
    ...(toolsApproval ? [`default_tools_approval_mode = ${tomlStr(toolsApproval)}`] : []),
    '',
  ].join('\n'));

  const env = hostEnv(s.home, { CODEX_HOME: codexHome, MOCK_OPENAI_API_KEY: 'mock-key', RUST_LOG: 'error' });
  const started = Date.now();
  const result = await runHost(BIN('codex'), [
    'exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never',
    'Use the edit tools as instructed.',
  ], { env, cwd: s.project, timeoutMs: 60000 });
  const ms = Date.now() - started;
  await mock.close();
  const wire = fs.existsSync(wireLog)
    ? fs.readFileSync(wireLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))
    : [];
  return { s, script, mock, result, wire, ms };
}

/** Everything a failure message should show: what the model saw, and the host's output tails. */
function context(run) {
  return `\n${shown(run.script)}\n--- codex exit ${run.result.code}${run.result.timedOut ? ' (timed out)' : ''}, ` +
    `${run.ms} ms; stdout tail ---\n${run.result.stdout.slice(-1500)}\n--- stderr tail ---\n${run.result.stderr.slice(-2500)}`;
}

/** What the model saw for tool-call step `step` (the text recorded by the mock). */
function seenAt(run, step) {
  const hit = run.script.seen.find((x) => x.step === step);
  assert.ok(hit, `no tool result for step ${step} reached the model${context(run)}`);
  return hit.text;
}

/**
 * The JSON object Codex showed the model when the result had structuredContent
 * ("Wall time: ...\nOutput:\n{...}"), or null when it showed content[] items instead.
 */
function shownStructured(text) {
  const m = /^Wall time: [^\n]*\nOutput:\n([\s\S]*)$/.exec(text);
  if (!m) return null;
  try { return JSON.parse(m[1]); } catch { return null; }
}

/** The MCP messages of a run's wire log in one direction with one method (requests/notifications). */
const wireMethod = (run, dir, method) => run.wire.filter((w) => w.dir === dir && w.msg?.method === method);

const read = (s, name) => fs.readFileSync(path.join(s.project, name));

describe('codex exec + mcp-edit', { timeout: 110000 }, () => {
  // One run covers (a)-(d): tools offered, read, a CRLF edit, an error. Approval auto.
  let run;
  before(async () => {
    run = await runCodex([
      { tool: 'read', args: { file_path: 'notes.txt' } },
      { tool: 'edit', args: { file_path: 'crlf.txt', old_string: 'two', new_string: 'TWO' } },
      { tool: 'edit', args: { file_path: 'notes.txt', old_string: 'no such text anywhere', new_string: 'x' } },
    ], { approval: 'auto' });
  });

  test('the run finishes and every step reached the model', () => {
    assert.equal(run.result.timedOut, false, `codex timed out${context(run)}`);
    assert.equal(run.result.code, 0, `codex failed${context(run)}`);
    assert.equal(run.script.seen.length, 3, `expected 3 tool results${context(run)}`);
  });

  test('(a) the seven tools, in the namespace mcp__edit', () => {
    const first = run.mock.modelRequests[0];
    assert.ok(first, `no model request${context(run)}`);
    const names = toolNames(first).filter((n) => n.startsWith('mcp__edit__'));
    assert.deepEqual(names.map((n) => n.slice('mcp__edit__'.length)).sort(), SEVEN, `tools offered: ${toolNames(first).join(', ')}`);
    const ns = first.tools.find((t) => t.type === 'namespace' && t.name === 'mcp__edit');
    assert.ok(ns && ns.tools.every((t) => t.type === 'function'), 'MCP tools come as functions inside a namespace entry');
  });

  test('(a) schemas as the model gets them: minimum, maximum, default, maxItems are stripped', () => {
    const first = run.mock.modelRequests[0];
    const params = (tool) => toolDef(first, `mcp__edit__${tool}`).def.parameters;
    const readP = params('read');
    assert.deepEqual(Object.keys(readP.properties).sort(), ['file_path', 'limit', 'offset']);
    assert.deepEqual(readP.required, ['file_path']);
    assert.equal(readP.additionalProperties, false);
    // The server declares minimum 1 on limit/offset, maximum on fuzzy_threshold, default false on
    // dry_run and maxItems on multiedit's edits; Codex leaves them out (minItems stays).
    assert.equal(readP.properties.limit.minimum, undefined);
    assert.equal(params('apply_diff').properties.fuzzy_threshold.maximum, undefined);
    assert.equal(params('edit').properties.dry_run.default, undefined);
    assert.equal(params('multiedit').properties.edits.maxItems, undefined);
    assert.equal(params('multiedit').properties.edits.minItems, 1);
    assert.match(params('read').properties.limit.description, /Default 2000/, 'descriptions are kept');
  });

  test('MCP handshake: protocol 2025-06-18, elicitation declared, no roots', () => {
    const init = wireMethod(run, 'in', 'initialize')[0];
    assert.ok(init, `no initialize on the wire: ${JSON.stringify(run.wire).slice(0, 800)}`);
    assert.equal(init.msg.params.protocolVersion, '2025-06-18');
    assert.deepEqual(init.msg.params.capabilities.elicitation, { form: {}, url: {} });
    assert.equal(init.msg.params.capabilities.roots, undefined);
    assert.equal(wireMethod(run, 'out', 'roots/list').length, 0);
  });

  // Codex passes only structuredContent, so the text reaches the model through its `text` field.
  test('(b) read: the file text with its line numbers reaches the model', () => {
    const text = seenAt(run, 0);
    const obj = shownStructured(text);
    assert.ok(obj, `Codex showed structuredContent as JSON${context(run)}`);
    assert.equal(obj.total_lines, 3, context(run));
    // The numbered lines `{n:>6}\t{line}`; inside the JSON text a tab is the escape \t.
    assert.equal(obj.text, '     1\talpha line\n     2\tbeta line\n     3\tgamma line', `structuredContent.text${context(run)}`);
    assert.match(text, /     2\\tbeta line/, context(run));
  });

  test('(c) edit of crlf.txt: byte-exact on disk; the model gets diff and summary', () => {
    assert.deepEqual(read(run.s, 'crlf.txt'), Buffer.from('one\r\nTWO\r\nthree\r\n'), context(run));
    const text = seenAt(run, 1);
    const obj = shownStructured(text);
    assert.ok(obj, `Codex showed structuredContent as JSON${context(run)}`);
    assert.match(obj.diff, /^@@ -1,3 \+1,3 @@$/m, context(run));
    assert.match(obj.diff, /^-two$/m, context(run));
    assert.match(obj.diff, /^\+TWO$/m, context(run));
    assert.equal(typeof obj.summary, 'string', `structuredContent.summary${context(run)}`);
    assert.match(obj.summary, /crlf\.txt/, context(run));
    assert.match(obj.summary, /\+1 -1/, context(run));
  });

  test('(d) an error: the whole message reaches the model, content[] items as input_text', () => {
    const text = seenAt(run, 2);
    // What the server sent (the recorder saw it), to compare the host's rendering with.
    const callId = wireMethod(run, 'in', 'tools/call')[2]?.msg.id;
    const reply = run.wire.find((w) => w.dir === 'out' && w.msg?.id === callId && w.msg.result);
    assert.ok(reply, `no reply to the third tools/call on the wire${context(run)}`);
    assert.equal(reply.msg.result.isError, true);
    const message = reply.msg.result.content[0].text;
    assert.match(message, /old_string was not found in the file/);
    // No structuredContent on an error, so Codex shows content[]: a header item, then each text.
    const items = JSON.parse(text);
    assert.ok(Array.isArray(items), context(run));
    assert.match(items[0].text, /^Wall time: .* seconds\nOutput:$/);
    assert.ok(items.some((i) => i.type === 'input_text' && i.text === message), `the whole message${context(run)}`);
    assert.deepEqual(read(run.s, 'notes.txt'), Buffer.from('alpha line\nbeta line\ngamma line\n'));
  });
});

describe('codex exec + mcp-edit --approval ask (default)', { timeout: 110000 }, () => {
  test('(e) Codex answers the form `decline` itself: nothing written; the model is told how to proceed', async () => {
    const run = await runCodex([
      { tool: 'edit', args: { file_path: 'crlf.txt', old_string: 'two', new_string: 'TWO' } },
    ], { approval: 'ask' });
    assert.equal(run.result.code, 0, `codex failed${context(run)}`);
    const form = wireMethod(run, 'out', 'elicitation/create')[0];
    assert.ok(form, `mcp-edit sent no form${context(run)}`);
    const answer = run.wire.find((w) => w.dir === 'in' && w.msg?.id === form.msg.id && !w.msg.method);
    assert.deepEqual(answer?.msg.result, { action: 'decline' }, `Codex's answer to the form${context(run)}`);
    assert.deepEqual(read(run.s, 'crlf.txt'), Buffer.from('one\r\ntwo\r\nthree\r\n'), context(run));
    const text = seenAt(run, 0);
    assert.match(text, /--approval auto/, `the way out is named${context(run)}`);
    assert.doesNotMatch(text, /The user (cancelled|declined)/, `no human was asked${context(run)}`);
  });

  test("(e) without default_tools_approval_mode, Codex's own gate refuses the edit before mcp-edit sees it", async () => {
    const run = await runCodex([
      { tool: 'edit', args: { file_path: 'crlf.txt', old_string: 'two', new_string: 'TWO' } },
    ], { approval: 'ask', toolsApproval: null });
    assert.equal(run.result.code, 0, `codex failed${context(run)}`);
    assert.equal(wireMethod(run, 'in', 'tools/call').length, 0, `mcp-edit got a call${context(run)}`);
    assert.match(seenAt(run, 0), /MCP tool call requires approval, but approval policy is never/, context(run));
    assert.deepEqual(read(run.s, 'crlf.txt'), Buffer.from('one\r\ntwo\r\nthree\r\n'), context(run));
  });
});
