// Gemini CLI 0.61 (the real host, pinned in package-lock.json) driving mcp-edit, its model played
// by mock_gemini.mjs. What it checks, per the host-matrix brief:
//   (a) the tools Gemini CLI offers its model: mcp_edit_<tool> for all thirteen, and the
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
  CRLF_EDITED, TOOLS, assertCleanEnd, holds, jsonEscaped, modelCalls, projectFile, runScripted, scratch, serverArgs, serverLog, watchedServer,
} from './harness.mjs';
import {
  A_PY, ELISION_WORDS, GBK_EDITED_TEXT, GREP_WORDS, bytesDiffer, iconvFrom, issue42Steps, writeIssue42Files,
} from './issue42.mjs';
import { declarations, functionResponses, startGeminiMock } from './mock_gemini.mjs';

const CRLF_BEFORE = 'one\r\ntwo\r\nthree\r\n';

/** Writes HOME/.gemini/settings.json: API-key auth, quiet, no folder trust, the edit server (a watchedServer()). */
function configure(home, server) {
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
    mcpServers: { edit: { command: server.command, args: server.args, trust: true } },
  }, null, 2));
}

/**
 * One headless Gemini CLI run against a fresh scratch project (runScripted). `steps(project)`:
 * the model's tool calls; `flags`: extra mcp-edit flags; `outside`: run from a scratch directory
 * beside the project, outside --root; `prepare(project)`: adds files first. The result also has
 * `response(i)`: the functionResponse.response (an object) the model got for step i.
 */
async function runGemini({ steps, flags = [], outside = false, prepare = () => {} }) {
  const r = await runScripted({
    host: 'gemini',
    steps,
    finalText: 'All done.',
    startMock: startGeminiMock,
    outside,
    setup: ({ base, home, project, mock }) => {
      prepare(project);
      const log = serverLog(base);
      const server = watchedServer(base, serverArgs(project, [...flags, ...log.flags]));
      configure(home, server);
      return {
        watch: server.watch,
        args: ['-p', 'Use the edit tools on the files here.', '--approval-mode', 'yolo', '--output-format', 'json'],
        env: {
          GEMINI_API_KEY: 'mock-key-not-real',
          GOOGLE_GEMINI_BASE_URL: mock.url,
          GEMINI_CLI_NO_RELAUNCH: 'true', // no second node process with a bigger heap
          GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'no-system-settings.json'),
        },
        log,
      };
    },
  });
  const last = r.mock.main[r.mock.main.length - 1];
  return { ...r, response: (i) => functionResponses(last)[i]?.response };
}

/** What the model reads of a successful result (asserting it is one). */
function output(r, step) {
  const res = r.response(step);
  assert.ok(res && typeof res.output === 'string' && res.error === undefined,
    `step ${step}: expected a successful result ({output}) reaching the model\n${r.context()}`);
  return res.output;
}

/**
 * An error result as the model reads it: the `error` string, and the CallToolResult embedded
 * in it after "with response: " (parsed: it is JSON, so it is whole).
 */
function errorResult(r, step) {
  const res = r.response(step);
  assert.ok(res && typeof res.error === 'string', `step ${step}: expected an error result ({error}) reaching the model\n${r.context()}`);
  const at = res.error.indexOf(' with response: ');
  assert.ok(at > 0, `step ${step}: the error does not embed the tool's response\n${r.context()}`);
  const parts = JSON.parse(res.error.slice(at + ' with response: '.length));
  return { text: res.error, result: parts[0].functionResponse.response };
}

/** Asserts that the read (step 0) showed notes.txt's numbered lines and the edit (step 1) landed and showed +TWO. */
function assertReadThenEdit(r) {
  assert.match(output(r, 0), /^\s*2\tbeta line$/m, r.context());
  assert.match(output(r, 1), /^\+TWO\r?$/m, r.context());
  assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, r.context());
}

describe('Gemini CLI + mcp-edit --approval auto, cwd = --root', () => {
  let r;
  before(async () => {
    r = await runGemini({ flags: ['--approval', 'auto'], steps: () => modelCalls('', 'read', 'edit', 'missing') });
  });
  after(() => {
    // For the report: the protocol version the server logged, and how long one run takes.
    const init = r?.serverLog.split('\n').find((l) => l.includes('initialize'));
    if (init) console.log(`# mcp-edit log: ${init.replace(/^\S+ /, '')}`);
    if (r) console.log(`# one gemini run: ${r.run.ms} ms`);
  });

  it('runs to the final answer', () => {
    assert.equal(r.run.code, 0, r.context());
    assert.equal(JSON.parse(r.run.stdout).response, 'All done.', r.context());
  });

  it('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  it('(a) offers the model the thirteen tools as mcp_edit_<tool>, each with wait_for_previous added', () => {
    const declared = r.mock.toolNames();
    const ours = declared.filter((n) => n.startsWith('mcp_edit_'));
    assert.deepEqual(ours, TOOLS.map((t) => `mcp_edit_${t}`), `declared: ${declared.join(', ')}`);
    const decls = declarations(r.mock.main[0]);
    for (const name of ours) {
      const schema = decls[name].parametersJsonSchema;
      assert.equal(schema?.properties?.wait_for_previous?.type, 'boolean', `${name}: ${JSON.stringify(schema)}`);
    }
  });

  it('(b) read puts the numbered lines of notes.txt in front of the model', () => {
    const text = output(r, 0);
    assert.match(text, /^2\tbeta line$/m, r.context());
    assert.match(text, /^\s*1\talpha line$/m, r.context());
  });

  it('(c) edit of crlf.txt lands byte-exactly; the model gets the summary and the diff', () => {
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, r.context());
    const text = output(r, 1);
    assert.match(text, /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m, r.context());
    assert.match(text, /^-two\r?$/m, r.context());
    assert.match(text, /^\+TWO\r?$/m, r.context());
    assert.match(text, /crlf\.txt \(\+1 -1\b/, `the summary line: ${r.context()}`);
    // --approval auto: no note about having written without asking.
    assert.doesNotMatch(text, /without asking/i, r.context());
  });

  it('(d) an edit whose old_string does not occur: the whole error message reaches the model', () => {
    const { text, result } = errorResult(r, 2);
    assert.equal(result.isError, true, r.context());
    const message = result.content[0].text;
    assert.match(message, /^old_string was not found in the file/, r.context());
    // The model reads the message JSON-escaped inside the error string, whole.
    assert.ok(text.includes(jsonEscaped(message)), r.context());
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, `the failed edit must not touch the file\n${r.context()}`);
  });
});

describe('Gemini CLI + mcp-edit with the default --approval ask (headless)', () => {
  let r;
  before(async () => {
    r = await runGemini({ steps: () => modelCalls('', 'edit') });
  });

  it('(e) writes at once (Gemini CLI declares no elicitation) and says so to the model', () => {
    assert.equal(r.run.code, 0, r.context());
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, r.context());
    const text = output(r, 0);
    assert.match(text, /^\+TWO\r?$/m, r.context());
    assert.match(text, /without asking/i, r.context());
  });

  it('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));
});

// Target behaviour 5: a tool argument the server did not list (once refused as "Invalid arguments
// for read: - at /wait_for_previous: unknown argument").
describe('Gemini CLI + mcp-edit: the model fills in wait_for_previous', () => {
  let r;
  before(async () => {
    const withWait = ({ tool, args }, wait) => ({ tool, args: { ...args, wait_for_previous: wait } });
    r = await runGemini({
      flags: ['--approval', 'auto'],
      steps: () => {
        const [read, edit] = modelCalls('', 'read', 'edit');
        return [withWait(read, false), withWait(edit, true)];
      },
    });
  });

  it('Gemini CLI passes the argument on, and the read and the edit still succeed', () => {
    assert.deepEqual(r.mock.calls.map((c) => c.args.wait_for_previous), [false, true]);
    assertReadThenEdit(r);
  });

  it('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));
});

// Target behaviour 6: client roots disjoint from --root (once "no usable root: the client's roots
// do not overlap the server's --root directories. Nothing inside them can be touched.").
describe('Gemini CLI + mcp-edit: working directory outside --root (sent as the client root)', () => {
  let r;
  before(async () => {
    r = await runGemini({ outside: true, flags: ['--approval', 'auto'], steps: (p) => modelCalls(p, 'read', 'edit') });
  });

  it('keeps --root: the read and the edit inside it still work', () => {
    assertReadThenEdit(r);
  });

  it('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));
});

// Issue 42: a GBK file is read as its text and edited in GBK; an elided write is refused. Gemini
// CLI shows the model content[]'s texts (so the numbered lines, then read's facts as JSON) and an
// error as the whole CallToolResult JSON-encoded inside its `error` string.
describe('Gemini CLI + mcp-edit --approval auto: a GBK file, then an elided write (issue 42)', () => {
  let r;
  before(async () => {
    r = await runGemini({ flags: ['--approval', 'auto'], steps: () => issue42Steps(), prepare: writeIssue42Files });
  });
  after(() => {
    // For the report: what Gemini CLI handed its model for the GBK read and for the refusal.
    for (const step of [0, 3]) {
      const res = r?.response(step);
      if (res) console.log(`# gemini, step ${step}, the model read: ${JSON.stringify(res).slice(0, 900)}`);
    }
  });

  it('runs to the final answer', () => {
    assert.equal(r.run.code, 0, r.context());
    assert.equal(JSON.parse(r.run.stdout).response, 'All done.', r.context());
  });

  it('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  it('(a) read of greet.py (GBK): the model gets the Chinese text as text, and encoding gbk', () => {
    const text = output(r, 0);
    assert.match(text, /^\s*3\t    return "你好，" \+ name \+ "！欢迎回来"$/m, `the numbered GBK line as text\n${r.context()}`);
    for (const word of ['你好', '欢迎回来', '用户资料']) assert.ok(text.includes(word), `the model did not read ${word}\n${r.context()}`);
    // read's facts reach the model as content[1]'s JSON text.
    assert.ok(text.includes('"encoding":"gbk"'), `the model was not told encoding gbk\n${r.context()}`);
    assert.match(text, /"encoding_decided_by":"gbk \(detected/, r.context());
  });

  it("(b) edit 欢迎回来 -> 很高兴见到你: greet.py on disk is iconv's GBK of the changed text; the diff shows it", () => {
    const got = projectFile(r.s.project, 'greet.py');
    const want = iconvFrom(GBK_EDITED_TEXT);
    assert.ok(got.equals(want), `greet.py is not the GBK of the edited text\n${bytesDiffer(got, want)}\n${r.context()}`);
    const text = output(r, 1);
    assert.match(text, /^-    return "你好，" \+ name \+ "！欢迎回来"$/m, r.context());
    assert.match(text, /^\+    return "你好，" \+ name \+ "！很高兴见到你"$/m, r.context());
  });

  it('(c) the elided write of a.py: the model reads the whole refusal; a.py keeps its bytes', () => {
    assert.match(output(r, 2), /^\s*10\t    return 3$/m, `the read of a.py\n${r.context()}`);
    const res = r.response(3);
    assert.ok(res && typeof res.error === 'string',
      `the elided write was not refused; the model got ${JSON.stringify(res)}\n${r.context()}`);
    const { text, result } = errorResult(r, 3);
    assert.equal(result.isError, true, r.context());
    for (const words of ELISION_WORDS) {
      assert.ok(holds(text, words), `the model did not read ${JSON.stringify(words)}; it saw: ${text}`);
    }
    // The whole message, JSON-escaped inside the error string.
    assert.ok(text.includes(jsonEscaped(result.content[0].text)), r.context());
    assert.equal(projectFile(r.s.project, 'a.py').toString('utf8'), A_PY, `a.py changed\n${r.context()}`);
  });

  it('(d) grep of 很高兴见到你: found in the GBK file, on line 3, shown as text, the encoding named', () => {
    const text = output(r, 4);
    for (const words of GREP_WORDS) assert.ok(text.includes(words), `the model did not read ${JSON.stringify(words)}\n${r.context()}`);
  });
});

// The fixture this file relies on, checked so a changed fixture fails loudly here.
it('fixture crlf.txt is the CRLF file the edits expect', () => {
  const { project } = scratch('mcp-edit-gemini-fixture-');
  assert.equal(fs.readFileSync(path.join(project, 'crlf.txt'), 'latin1'), CRLF_BEFORE);
});
