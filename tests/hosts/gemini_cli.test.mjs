// Gemini CLI 0.61 (the real host, pinned in package-lock.json) driving mcp-edit, its model played
// by mock_gemini.mjs. What it checks, per the host-matrix brief:
//   (a) the tools Gemini CLI offers its model: mcp_edit_<tool> for all seven, and the
//       `wait_for_previous` parameter it adds to every tool's schema;
//   (b) a `read` puts the numbered lines in front of the model;
//   (c) an `edit` of a CRLF file lands byte-exactly and the model receives summary and diff;
//   (d) an error (old_string not found) reaches the model whole;
//   (e) headless approval: --approval auto writes; the default --approval ask writes at once
//       too, because Gemini CLI declares no elicitation capability (only roots);
//   and two quirks of this host that the server is being changed for:
//   - the model fills in `wait_for_previous` and Gemini CLI passes it on to the server
//     (target: ignored, the call succeeds);
//   - Gemini CLI sends its working directory as the only client root (target: a cwd outside
//     --root does not disable the server).
//
// How Gemini CLI hands a tool result to its model (observed): a functionResponse part whose
// `response` is {output: "<untrusted_context>\n{content[0].text}\n</untrusted_context>\n
// <untrusted_context>\n{content[1].text}\n</untrusted_context>"} (text blocks only;
// structuredContent is dropped); an isError result becomes {error: "MCP tool 'edit' reported
// tool error for function call: {...} with response: [{functionResponse: {name, response:
// <the CallToolResult>}}]"}, i.e. the whole result JSON-encoded inside a string.
//
// Configuration: a scratch HOME whose .gemini/settings.json selects API-key auth, turns off
// telemetry, usage statistics, auto-update and folder trust, and declares mcpServers.edit
// (trust: true); GEMINI_API_KEY is a dummy and GOOGLE_GEMINI_BASE_URL points at the mock;
// `gemini -p ... --approval-mode yolo --output-format json`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BIN, BINARY, ModelScript, hostEnv, requireBinary, runHost, scratch, serverArgs, shown,
} from './harness.mjs';
import { declarations, functionResponses, startGeminiMock } from './mock_gemini.mjs';

const TOOLS = ['read', 'edit', 'multiedit', 'write', 'insert', 'apply_diff', 'undo'];
const CRLF_BEFORE = 'one\r\ntwo\r\nthree\r\n';
const CRLF_AFTER = 'one\r\nTWO\r\nthree\r\n';
const NOT_THERE = 'this text is not in the file';

/** Writes HOME/.gemini/settings.json: API-key auth, quiet, no folder trust, the edit server. */
function configure(home, mcpArgs) {
  const dir = path.join(home, '.gemini');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({
    security: {
      auth: { selectedType: 'gemini-api-key' },
      // Without this a headless run in an untrusted folder stops before the first request.
      folderTrust: { enabled: false },
    },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    // trust: the server's tools run without Gemini CLI's own confirmation (needed without
    // --yolo: in a headless run untrusted MCP tools are not even offered to the model).
    mcpServers: { edit: { command: BINARY, args: mcpArgs, trust: true } },
  }, null, 2));
}

/**
 * One headless Gemini CLI run against a fresh scratch project. `steps`: the model's tool calls
 * (file paths may use {project}); `flags`: extra mcp-edit flags; `cwd`: 'project' or 'elsewhere'
 * (a scratch directory beside the project, outside --root).
 */
async function runGemini({ steps, flags = [], cwd = 'project' }) {
  requireBinary();
  const { base, home, project } = scratch('mcp-edit-gemini-');
  const elsewhere = path.join(base, 'elsewhere');
  fs.mkdirSync(elsewhere);
  const serverLog = path.join(base, 'mcp-edit.log');
  configure(home, serverArgs(project, [...flags, '--log-file', serverLog]));

  const expand = (v) => (typeof v === 'string' ? v.replaceAll('{project}', project) : v);
  const script = new ModelScript(
    steps.map((s) => ({ tool: s.tool, args: Object.fromEntries(Object.entries(s.args).map(([k, v]) => [k, expand(v)])) })),
    'All done.',
  );
  const mock = await startGeminiMock(script);
  const started = Date.now();
  const result = await runHost(BIN('gemini'), ['-p', 'Use the edit tools on the files here.', '--approval-mode', 'yolo', '--output-format', 'json'], {
    cwd: cwd === 'elsewhere' ? elsewhere : project,
    timeoutMs: 60000,
    env: hostEnv(home, {
      GEMINI_API_KEY: 'mock-key-not-real',
      GOOGLE_GEMINI_BASE_URL: mock.url,
      GEMINI_CLI_NO_RELAUNCH: 'true', // no second node process with a bigger heap
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'no-system-settings.json'),
    }),
  });
  const ms = Date.now() - started;
  await mock.close();
  const last = mock.main[mock.main.length - 1];
  return {
    project,
    script,
    mock,
    result,
    ms,
    serverLog: fs.existsSync(serverLog) ? fs.readFileSync(serverLog, 'utf8') : '',
    /** The functionResponse.response the model got for step i (an object). */
    response: (i) => functionResponses(last)[i]?.response,
    file: (name) => fs.readFileSync(path.join(project, name), 'latin1'),
  };
}

/** The answer (or error) of `--output-format json`, without the token statistics. */
function stdoutGist(stdout) {
  try {
    const { response, error } = JSON.parse(stdout);
    return JSON.stringify({ response, error });
  } catch {
    return stdout.slice(-1500);
  }
}

/** A failure message: what the model saw, the host's output tails, the requests it made. */
function context(run) {
  const { result, mock } = run;
  return [
    shown(run.script),
    `--- gemini exit ${result.code}${result.timedOut ? ' (timed out)' : ''} after ${run.ms} ms ---`,
    `stdout: ${stdoutGist(result.stdout)}`,
    `stderr tail: ${result.stderr.slice(-1500)}`,
    `requests: ${mock.requests.map((r) => `${r.method} ${r.url}`).join(', ')}`,
    `mcp-edit log: ${run.serverLog.slice(-1000)}`,
  ].join('\n');
}

/** What the model reads of a successful result (asserting it is one). */
function output(run, step) {
  const r = run.response(step);
  assert.ok(r && typeof r.output === 'string' && r.error === undefined,
    `step ${step}: expected a successful result ({output}) reaching the model\n${context(run)}`);
  return r.output;
}

/**
 * An error result as the model reads it: the `error` string, and the CallToolResult embedded
 * in it after "with response: " (parsed: it is JSON, so it is whole).
 */
function errorResult(run, step) {
  const r = run.response(step);
  assert.ok(r && typeof r.error === 'string', `step ${step}: expected an error result ({error}) reaching the model\n${context(run)}`);
  const at = r.error.indexOf(' with response: ');
  assert.ok(at > 0, `step ${step}: the error does not embed the tool's response\n${context(run)}`);
  const parts = JSON.parse(r.error.slice(at + ' with response: '.length));
  return { text: r.error, result: parts[0].functionResponse.response };
}

describe('Gemini CLI + mcp-edit --approval auto, cwd = --root', () => {
  let run;
  before(async () => {
    run = await runGemini({
      flags: ['--approval', 'auto'],
      steps: [
        { tool: 'read', args: { file_path: 'notes.txt' } },
        { tool: 'edit', args: { file_path: 'crlf.txt', old_string: 'two', new_string: 'TWO' } },
        { tool: 'edit', args: { file_path: 'crlf.txt', old_string: NOT_THERE, new_string: 'x' } },
      ],
    });
  });
  after(() => {
    // For the report: the protocol version the server logged, and how long one run takes.
    const init = run?.serverLog.split('\n').find((l) => l.includes('initialize'));
    if (init) console.log(`# mcp-edit log: ${init.replace(/^\S+ /, '')}`);
    if (run) console.log(`# one gemini run: ${run.ms} ms`);
  });

  it('runs to the final answer', () => {
    assert.equal(run.result.code, 0, context(run));
    assert.equal(JSON.parse(run.result.stdout).response, 'All done.', context(run));
  });

  it('(a) offers the model the seven tools as mcp_edit_<tool>, each with wait_for_previous added', () => {
    const declared = run.mock.toolNames();
    const ours = declared.filter((n) => n.startsWith('mcp_edit_'));
    assert.deepEqual(ours, TOOLS.map((t) => `mcp_edit_${t}`), `declared: ${declared.join(', ')}`);
    const decls = declarations(run.mock.main[0]);
    for (const name of ours) {
      const schema = decls[name].parametersJsonSchema;
      assert.equal(schema?.properties?.wait_for_previous?.type, 'boolean', `${name}: ${JSON.stringify(schema)}`);
    }
  });

  it('(b) read puts the numbered lines of notes.txt in front of the model', () => {
    const text = output(run, 0);
    assert.match(text, /^\s*2\tbeta line$/m, context(run));
    assert.match(text, /^\s*1\talpha line$/m, context(run));
  });

  it('(c) edit of crlf.txt lands byte-exactly; the model gets the summary and the diff', () => {
    assert.equal(run.file('crlf.txt'), CRLF_AFTER, context(run));
    const text = output(run, 1);
    assert.match(text, /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m, context(run));
    assert.match(text, /^-two\r?$/m, context(run));
    assert.match(text, /^\+TWO\r?$/m, context(run));
    assert.match(text, /crlf\.txt \(\+1 -1\b/, `the summary line: ${context(run)}`);
    // --approval auto: no note about having written without asking.
    assert.doesNotMatch(text, /without asking/i, context(run));
  });

  it('(d) an edit whose old_string does not occur: the whole error message reaches the model', () => {
    const { text, result } = errorResult(run, 2);
    assert.equal(result.isError, true, context(run));
    const message = result.content[0].text;
    assert.match(message, /^old_string was not found in the file/, context(run));
    // The model reads the message JSON-escaped inside the error string, whole.
    assert.ok(text.includes(JSON.stringify(message).slice(1, -1)), context(run));
    assert.equal(run.file('crlf.txt'), CRLF_AFTER, `the failed edit must not touch the file\n${context(run)}`);
  });
});

describe('Gemini CLI + mcp-edit with the default --approval ask (headless)', () => {
  let run;
  before(async () => {
    run = await runGemini({
      steps: [{ tool: 'edit', args: { file_path: 'crlf.txt', old_string: 'two', new_string: 'TWO' } }],
    });
  });

  it('(e) writes at once (Gemini CLI declares no elicitation) and says so to the model', () => {
    assert.equal(run.result.code, 0, context(run));
    assert.equal(run.file('crlf.txt'), CRLF_AFTER, context(run));
    const text = output(run, 0);
    assert.match(text, /^\+TWO\r?$/m, context(run));
    assert.match(text, /without asking/i, context(run));
  });
});

// Target behaviour 5: fails until the server change lands (today: "Invalid arguments for read:
// - at /wait_for_previous: unknown argument").
describe('Gemini CLI + mcp-edit: the model fills in wait_for_previous', () => {
  let run;
  before(async () => {
    run = await runGemini({
      flags: ['--approval', 'auto'],
      steps: [
        { tool: 'read', args: { file_path: 'notes.txt', wait_for_previous: false } },
        { tool: 'edit', args: { file_path: 'crlf.txt', old_string: 'two', new_string: 'TWO', wait_for_previous: true } },
      ],
    });
  });

  it('Gemini CLI passes the argument on, and the read and the edit still succeed', () => {
    assert.deepEqual(run.mock.calls.map((c) => c.args.wait_for_previous), [false, true]);
    assert.match(output(run, 0), /^\s*2\tbeta line$/m, context(run));
    assert.match(output(run, 1), /^\+TWO\r?$/m, context(run));
    assert.equal(run.file('crlf.txt'), CRLF_AFTER, context(run));
  });
});

// Target behaviour 6: fails until the server change lands (today: "no usable root: the client's
// roots do not overlap the server's --root directories. Nothing inside them can be touched.").
describe('Gemini CLI + mcp-edit: working directory outside --root (sent as the client root)', () => {
  let run;
  before(async () => {
    run = await runGemini({
      cwd: 'elsewhere',
      flags: ['--approval', 'auto'],
      steps: [
        { tool: 'read', args: { file_path: '{project}/notes.txt' } },
        { tool: 'edit', args: { file_path: '{project}/crlf.txt', old_string: 'two', new_string: 'TWO' } },
      ],
    });
  });

  it('keeps --root: the read and the edit inside it still work', () => {
    assert.match(output(run, 0), /^\s*2\tbeta line$/m, context(run));
    assert.match(output(run, 1), /^\+TWO\r?$/m, context(run));
    assert.equal(run.file('crlf.txt'), CRLF_AFTER, context(run));
  });
});

// The fixture this file relies on, checked so a changed fixture fails loudly here.
it('fixture crlf.txt is the CRLF file the edits expect', () => {
  const { project } = scratch('mcp-edit-gemini-fixture-');
  assert.equal(fs.readFileSync(path.join(project, 'crlf.txt'), 'latin1'), CRLF_BEFORE);
});
