// Host test: OpenAI Codex CLI (`codex exec`, the pinned @openai/codex) driving mcp-edit.
//
// Codex runs non-interactively with a scratch HOME and CODEX_HOME whose config.toml points a custom
// model provider (Responses API) at mock_openai_responses.mjs and starts mcp-edit as the MCP server
// `edit`. The mock plays the model: tool calls first, then a final answer, and records each
// `function_call_output` Codex sends back, i.e. exactly what a real model would read. mcp-edit is
// started through the harness's stdio recorder (recordedServer) so the test also sees the MCP
// traffic: what Codex declares in `initialize` and what it answers to an approval form.
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
import { after, before, describe, test } from 'node:test';
import {
  CRLF_EDITED, TOOLS, assertCleanEnd, fixtures, modelCalls, onWire, projectFile, recordedServer, runScripted, seenAt, serverArgs, toolCalls,
} from './harness.mjs';
import {
  A_PY, ELISION_WORDS, GBK_EDITED_TEXT, GREP_WORDS, bytesDiffer, iconvFrom, issue42Steps, writeIssue42Files,
} from './issue42.mjs';
import { startResponsesMock, toolDef, toolNames } from './mock_openai_responses.mjs';

/** A TOML string literal (JSON's escapes are valid TOML basic-string escapes). */
const tomlStr = (s) => JSON.stringify(s);

/**
 * One `codex exec` run (runScripted): a fresh scratch project, the mock model playing the calls
 * `names` of modelCalls(), mcp-edit (behind the recorder: the result's `wire`) with `approval`
 * (ask | auto). `toolsApproval` is the server's default_tools_approval_mode in Codex's config
 * ("approve" lets Codex call mcp-edit's changing tools headless; null leaves Codex's default).
 * `steps` (a list of {tool, args}) replaces the calls `names`; `prepare(project)` adds files first.
 */
function runCodex(names, { approval, toolsApproval = 'approve', steps, prepare = () => {} }) {
  return runScripted({
    host: 'codex',
    steps: () => steps ?? modelCalls('', ...names),
    startMock: startResponsesMock,
    setup: ({ base, home, project, mock }) => {
      prepare(project);
      const codexHome = path.join(home, '.codex');
      fs.mkdirSync(codexHome);
      const server = recordedServer(base, serverArgs(project, ['--approval', approval]));
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
        `command = ${tomlStr(server.command)}`,
        `args = [${server.args.map(tomlStr).join(', ')}]`,
        'startup_timeout_sec = 30',
        'tool_timeout_sec = 60',
        ...(toolsApproval ? [`default_tools_approval_mode = ${tomlStr(toolsApproval)}`] : []),
        '',
      ].join('\n'));
      return {
        args: ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', 'Use the edit tools as instructed.'],
        env: { CODEX_HOME: codexHome, MOCK_OPENAI_API_KEY: 'mock-key', RUST_LOG: 'error' },
        wireLog: server.wireLog,
        watch: server.watch,
      };
    },
  });
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

describe('codex exec + mcp-edit', { timeout: 110000 }, () => {
  // One run covers (a)-(d): tools offered, read, a CRLF edit, an error. Approval auto.
  let r;
  before(async () => {
    r = await runCodex(['read', 'edit', 'missing'], { approval: 'auto' });
  });

  test('the run finishes and every step reached the model', () => {
    assert.equal(r.run.timedOut, false, `codex timed out\n${r.context()}`);
    assert.equal(r.run.code, 0, `codex failed\n${r.context()}`);
    assert.equal(r.script.seen.length, 3, `expected 3 tool results\n${r.context()}`);
  });

  test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  test('(a) the thirteen tools, in the namespace mcp__edit', () => {
    const first = r.mock.modelRequests[0];
    assert.ok(first, `no model request\n${r.context()}`);
    const names = toolNames(first).filter((n) => n.startsWith('mcp__edit__'));
    assert.deepEqual(names.map((n) => n.slice('mcp__edit__'.length)).sort(), [...TOOLS].sort(), `tools offered: ${toolNames(first).join(', ')}`);
    const ns = first.tools.find((t) => t.type === 'namespace' && t.name === 'mcp__edit');
    assert.ok(ns && ns.tools.every((t) => t.type === 'function'), 'MCP tools come as functions inside a namespace entry');
  });

  test('(a) schemas as the model gets them: minimum, maximum, default, maxItems are stripped', () => {
    const first = r.mock.modelRequests[0];
    const params = (tool) => toolDef(first, `mcp__edit__${tool}`).def.parameters;
    const readP = params('read');
    assert.deepEqual(Object.keys(readP.properties).sort(), ['encoding', 'file_path', 'file_paths', 'limit', 'offset']);
    // read takes file_path or file_paths (issue 25), so the schema requires neither.
    assert.deepEqual(readP.required ?? [], []);
    assert.equal(readP.additionalProperties, false);
    // The server declares minimum 1 on limit/offset, maximum on fuzzy_threshold, default false on
    // dry_run and maxItems on multiedit's edits; Codex leaves them out (minItems stays).
    assert.equal(readP.properties.limit.minimum, undefined);
    assert.equal(params('apply_diff').properties.fuzzy_threshold.maximum, undefined);
    assert.equal(params('edit').properties.dry_run.default, undefined);
    assert.equal(params('multiedit').properties.edits.maxItems, undefined);
    assert.equal(params('multiedit').properties.edits.minItems, 1);
    assert.equal(readP.properties.file_paths.maxItems, undefined);
    assert.match(params('read').properties.limit.description, /Default 2000/, 'descriptions are kept');
  });

  test('MCP handshake: protocol 2025-06-18, elicitation declared, no roots', () => {
    const init = onWire(r.wire, 'c2s', 'initialize')[0];
    assert.ok(init, `no initialize on the wire: ${JSON.stringify(r.wire).slice(0, 800)}`);
    assert.equal(init.msg.params.protocolVersion, '2025-06-18');
    assert.deepEqual(init.msg.params.capabilities.elicitation, { form: {}, url: {} });
    assert.equal(init.msg.params.capabilities.roots, undefined);
    assert.equal(onWire(r.wire, 's2c', 'roots/list').length, 0);
  });

  // Codex passes only structuredContent, so the text reaches the model through its `text` field.
  test('(b) read: the file text with its line numbers reaches the model', () => {
    const text = seenAt(r, 0);
    const obj = shownStructured(text);
    assert.ok(obj, `Codex showed structuredContent as JSON\n${r.context()}`);
    assert.equal(obj.total_lines, 3, r.context());
    // The numbered lines, unpadded for a host that shows only this JSON (`{n}\t{line}`); inside the
    // JSON text a tab is the escape \t.
    assert.equal(obj.text, '1\talpha line\n2\tbeta line\n3\tgamma line', `structuredContent.text\n${r.context()}`);
    assert.match(text, /\\n2\\tbeta line/, r.context());
  });

  test('(c) edit of crlf.txt: byte-exact on disk; the model gets diff and summary', () => {
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, r.context());
    const text = seenAt(r, 1);
    const obj = shownStructured(text);
    assert.ok(obj, `Codex showed structuredContent as JSON\n${r.context()}`);
    assert.match(obj.diff, /^@@ -1,3 \+1,3 @@$/m, r.context());
    assert.match(obj.diff, /^-two$/m, r.context());
    assert.match(obj.diff, /^\+TWO$/m, r.context());
    assert.equal(typeof obj.summary, 'string', `structuredContent.summary\n${r.context()}`);
    assert.match(obj.summary, /crlf\.txt/, r.context());
    assert.match(obj.summary, /\+1 -1/, r.context());
  });

  test('(d) an error: the whole message reaches the model, content[] items as input_text', () => {
    const text = seenAt(r, 2);
    // What the server sent (the recorder saw it), to compare the host's rendering with.
    const reply = toolCalls(r.wire)[2]?.response;
    assert.ok(reply?.result, `no reply to the third tools/call on the wire\n${r.context()}`);
    assert.equal(reply.result.isError, true);
    const message = reply.result.content[0].text;
    assert.match(message, /old_string was not found in the file/);
    // No structuredContent on an error, so Codex shows content[]: a header item, then each text.
    const items = JSON.parse(text);
    assert.ok(Array.isArray(items), r.context());
    assert.match(items[0].text, /^Wall time: .* seconds\nOutput:$/);
    assert.ok(items.some((i) => i.type === 'input_text' && i.text === message), `the whole message\n${r.context()}`);
    // The failed edit leaves the file it names as the CRLF edit wrote it.
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED);
  });
});

describe('codex exec + mcp-edit --approval ask (default)', { timeout: 110000 }, () => {
  test('(e) Codex answers the form `decline` itself: nothing written; the model is told how to proceed', async () => {
    const r = await runCodex(['edit'], { approval: 'ask' });
    assert.equal(r.run.code, 0, `codex failed\n${r.context()}`);
    const form = onWire(r.wire, 's2c', 'elicitation/create')[0];
    assert.ok(form, `mcp-edit sent no form\n${r.context()}`);
    const answer = r.wire.find((w) => w.dir === 'c2s' && w.msg?.id === form.msg.id && !w.msg.method);
    assert.deepEqual(answer?.msg.result, { action: 'decline' }, `Codex's answer to the form\n${r.context()}`);
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), fixtures()['crlf.txt'], r.context());
    const text = seenAt(r, 0);
    assert.match(text, /--approval auto/, `the way out is named\n${r.context()}`);
    assert.doesNotMatch(text, /The user (cancelled|declined)/, `no human was asked\n${r.context()}`);
    assertCleanEnd(r);
  });

  test("(e) without default_tools_approval_mode, Codex's own gate refuses the edit before mcp-edit sees it", async () => {
    const r = await runCodex(['edit'], { approval: 'ask', toolsApproval: null });
    assert.equal(r.run.code, 0, `codex failed\n${r.context()}`);
    assert.equal(onWire(r.wire, 'c2s', 'tools/call').length, 0, `mcp-edit got a call\n${r.context()}`);
    assert.match(seenAt(r, 0), /MCP tool call requires approval, but approval policy is never/, r.context());
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), fixtures()['crlf.txt'], r.context());
    assertCleanEnd(r);
  });
});

describe('codex exec + mcp-edit --approval auto: a GBK file, then an elided write (issue 42)', { timeout: 110000 }, () => {
  // Codex shows the model only structuredContent (as JSON) on success, and content[] items on an
  // error: so the GBK text must be in structuredContent.text, and the refusal in content[].
  let r;
  before(async () => {
    r = await runCodex([], { approval: 'auto', steps: issue42Steps(), prepare: writeIssue42Files });
  });
  after(() => {
    // For the report: what Codex handed its model for the GBK read and for the refusal.
    for (const step of [0, 3]) {
      const hit = r?.script.seen.find((x) => x.step === step);
      if (hit) console.log(`# codex, step ${step}, the model read: ${JSON.stringify(hit.text.slice(0, 700))}`);
    }
  });

  test('the run finishes and all five steps reached the model', () => {
    assert.equal(r.run.timedOut, false, `codex timed out\n${r.context()}`);
    assert.equal(r.run.code, 0, `codex failed\n${r.context()}`);
    assert.equal(r.script.seen.length, 5, `expected 5 tool results\n${r.context()}`);
  });

  test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  test('(a) read of greet.py (GBK): the model gets the Chinese text as text, and encoding gbk', () => {
    const text = seenAt(r, 0);
    const obj = shownStructured(text);
    assert.ok(obj, `Codex showed structuredContent as JSON\n${r.context()}`);
    assert.equal(obj.encoding, 'gbk', `structuredContent.encoding is ${JSON.stringify(obj.encoding)}\n${r.context()}`);
    assert.match(obj.encoding_decided_by ?? '', /^gbk \(detected/,
      `structuredContent.encoding_decided_by is ${JSON.stringify(obj.encoding_decided_by)}\n${r.context()}`);
    assert.match(obj.text, /^\s*3\t    return "你好，" \+ name \+ "！欢迎回来"$/m, `structuredContent.text\n${r.context()}`);
    // As characters in what the model reads, not as \u escapes.
    for (const word of ['你好', '欢迎回来', '用户资料']) assert.ok(text.includes(word), `the model did not read ${word}\n${r.context()}`);
  });

  test("(b) edit 欢迎回来 -> 很高兴见到你: greet.py on disk is iconv's GBK of the changed text; the diff shows it", () => {
    const got = projectFile(r.s.project, 'greet.py');
    const want = iconvFrom(GBK_EDITED_TEXT);
    assert.ok(got.equals(want), `greet.py is not the GBK of the edited text\n${bytesDiffer(got, want)}\n${r.context()}`);
    const obj = shownStructured(seenAt(r, 1));
    assert.ok(obj, `Codex showed structuredContent as JSON\n${r.context()}`);
    assert.match(obj.diff, /^-    return "你好，" \+ name \+ "！欢迎回来"$/m, r.context());
    assert.match(obj.diff, /^\+    return "你好，" \+ name \+ "！很高兴见到你"$/m, r.context());
  });

  test('(c) the elided write of a.py: the model reads the whole refusal; a.py keeps its bytes', () => {
    assert.equal(shownStructured(seenAt(r, 2))?.total_lines, 10, `the read of a.py\n${r.context()}`);
    const reply = toolCalls(r.wire)[3]?.response;
    assert.ok(reply?.result, `no reply to the fourth tools/call on the wire\n${r.context()}`);
    assert.equal(reply.result.isError, true, `the elided write was not refused: ${JSON.stringify(reply.result)}\n${r.context()}`);
    const text = seenAt(r, 3);
    let items;
    try { items = JSON.parse(text); } catch { /* shown below */ }
    assert.ok(Array.isArray(items), `Codex did not show content[] items for the refusal: ${text}\n${r.context()}`);
    const shownTexts = items.filter((i) => i.type === 'input_text').map((i) => i.text).join('\n');
    for (const words of ELISION_WORDS) {
      assert.ok(shownTexts.includes(words), `the model did not read ${JSON.stringify(words)}; it saw: ${shownTexts}`);
    }
    assert.equal(projectFile(r.s.project, 'a.py').toString('utf8'), A_PY, `a.py changed\n${r.context()}`);
  });

  test('(d) grep of 很高兴见到你: found in the GBK file, on line 3, shown as text, the encoding named', () => {
    const obj = shownStructured(seenAt(r, 4));
    assert.ok(obj, `Codex showed structuredContent as JSON\n${r.context()}`);
    assert.deepEqual(obj.files, [{ path: 'greet.py', matches: 1, lines: [3], encoding: 'gbk' }], r.context());
    for (const words of GREP_WORDS) assert.ok(obj.text.includes(words), `structuredContent.text\n${r.context()}`);
  });
});
