// Claude Code (the real CLI, pinned in package-lock.json) driving mcp-edit headless.
//
// Why: Claude Code is the host most people will use mcp-edit from, and it hands its model a
// tool result in its own shape (only structuredContent, JSON-stringified, when there is one),
// answers approval forms by itself in `-p` mode, and lets an `Elicitation` hook answer instead.
// These tests pin what its model actually sees.
//
// How: `claude -p` runs with ANTHROPIC_BASE_URL at mock_anthropic.mjs (which plays the model
// from a ModelScript and records every tool_result), a scratch HOME, mcp-edit configured with
// `--mcp-config` + `--strict-mcp-config` as server "edit", its tools allowed by the permission
// rule `--allowedTools mcp__edit` (no prompt), and ENABLE_TOOL_SEARCH=false so the MCP tools are
// in the request's `tools` (by default Claude Code defers them behind its ToolSearch tool and
// only names them in a system message).
//
// Observed with 2.1.328: Claude Code speaks the stateless 2026-07-28 protocol to mcp-edit
// (server/discover, per-request _meta declaring roots and elicitation form+url), so approval is
// an `input_required` round trip; `-p` answers it {action: "cancel"} and an `Elicitation` hook
// (matcher: the server name) can answer instead. A successful result with structuredContent
// reaches the model as one string, JSON.stringify(structuredContent), and nothing of content[];
// an error result (isError, no structuredContent) as the string content[0].text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import {
  CRLF_EDITED, TOOLS, assertCleanEnd, fixtures, holds, modelCalls, numbered, numberedUnpadded, projectFile, referenceError, runScripted, seenAt, serverArgs, watchedServer,
} from './harness.mjs';
import { startAnthropicMock } from './mock_anthropic.mjs';

/** A hook command that accepts every form with decision "apply" and saves its input (the form) to `inputFile`. */
function acceptHook(inputFile) {
  const out = JSON.stringify({
    hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { decision: 'apply' } },
  });
  return `cat > '${inputFile}'; echo '${out}'`;
}

/**
 * One headless Claude Code run (runScripted): mcp-edit with `mcpFlags`, the model playing the
 * calls `names` of modelCalls(), optional user settings (HOME/.claude/settings.json).
 */
function runClaude({ names, mcpFlags = [], settings }) {
  return runScripted({
    host: 'claude',
    steps: () => modelCalls('', ...names),
    startMock: startAnthropicMock,
    setup: ({ base, home, project, mock }) => {
      const config = path.join(home, 'mcp.json');
      const server = watchedServer(base, serverArgs(project, mcpFlags));
      fs.writeFileSync(config, JSON.stringify({
        mcpServers: { edit: { type: 'stdio', command: server.command, args: server.args } },
      }));
      if (settings) {
        fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
        fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify(settings(home)));
      }
      return {
        watch: server.watch,
        args: ['-p', 'Work on the files in this folder with the edit tools.',
          '--mcp-config', config, '--strict-mcp-config', '--allowedTools', 'mcp__edit',
          '--output-format', 'json'],
        env: {
          ANTHROPIC_BASE_URL: mock.url,
          ANTHROPIC_API_KEY: 'sk-ant-dummy-for-mock',
          ENABLE_TOOL_SEARCH: 'false',
        },
      };
    },
  });
}

/**
 * One headless Claude Code run with --approval auto playing `steps` (mcp-edit as server "edit",
 * its tools allowed), `prompt` as the user's; `prepare(project)` may add files first.
 */
function runAuto(steps, prompt, prepare = () => {}) {
  return runScripted({
    host: 'claude',
    steps: () => steps,
    startMock: startAnthropicMock,
    setup: ({ base, home, project, mock }) => {
      prepare(project);
      const config = path.join(home, 'mcp.json');
      const server = watchedServer(base, serverArgs(project, ['--approval', 'auto']));
      fs.writeFileSync(config, JSON.stringify({
        mcpServers: { edit: { type: 'stdio', command: server.command, args: server.args } },
      }));
      return {
        watch: server.watch,
        args: ['-p', prompt, '--mcp-config', config, '--strict-mcp-config', '--allowedTools', 'mcp__edit',
          '--output-format', 'json'],
        env: { ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-dummy-for-mock', ENABLE_TOOL_SEARCH: 'false' },
      };
    },
    timeoutMs: 90000,
  });
}

/** The tool result the model saw at `step`, or a failure showing everything it saw. */
function resultAt(r, step) {
  const hit = r.mock.results.find((x) => x.step === step);
  assert.ok(hit, `no tool result for step ${step} reached the model\n${r.context()}`);
  return { ...hit, text: seenAt(r, step) };
}

describe('claude -p, --approval auto: one run reads, edits a CRLF file, hits an error, and asks what changed', () => {
  let r;
  before(async () => {
    r = await runClaude({
      mcpFlags: ['--approval', 'auto'],
      names: ['read', 'edit', 'missing', 'changes'],
    });
  }, { timeout: 90000 });

  test('the run finishes', (t) => {
    t.diagnostic(`claude run: ${r.run.ms} ms, ${r.mock.requests.length} model requests (${r.mock.side.length} side)`);
    assert.equal(r.run.timedOut, false, `claude timed out\n${r.context()}`);
    assert.equal(r.run.code, 0, `claude failed\n${r.context()}`);
  });

  test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  test('(a) all thirteen tools are offered as mcp__edit__<tool> with input schemas', () => {
    assert.ok(r.mock.main.length > 0, `no model request offered the mcp tools\n${r.context()}`);
    const offered = r.mock.main[0].tools;
    for (const tool of TOOLS) {
      const hit = offered.find((x) => x.name === `mcp__edit__${tool}`);
      assert.ok(hit, `mcp__edit__${tool} not offered; offered: ${offered.map((x) => x.name).join(', ')}`);
      assert.equal(hit.input_schema?.type, 'object', `mcp__edit__${tool} has no input schema: ${JSON.stringify(hit)}`);
    }
  });

  test('(b) read puts the numbered lines of notes.txt in front of the model', () => {
    // Claude Code hands the model only the stringified structuredContent, whose `text` has the
    // numbers unpadded for it (the server knows it by its clientInfo name).
    const read = resultAt(r, 0);
    assert.equal(read.isError, false, `read failed\n${r.context()}`);
    const lines = fixtures()['notes.txt'].toString('utf8').split('\n');
    assert.ok(holds(read.text, `\n${numberedUnpadded(2, lines[1])}`) && !holds(read.text, numbered(2, lines[1])),
      `the model did not see line 2 ("${lines[1]}") of notes.txt numbered\n${r.context()}`);
  });

  test('(c) the CRLF edit lands byte-exactly and the model sees the diff', () => {
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED,
      `crlf.txt is not byte-exact after the edit\n${r.context()}`);
    const edit = resultAt(r, 1);
    assert.equal(edit.isError, false, `edit failed\n${r.context()}`);
    for (const s of ['@@ -', '\n-two\n', '\n+TWO\n']) {
      assert.ok(holds(edit.text, s), `the model did not see ${JSON.stringify(s)} of the diff\n${r.context()}`);
    }
    assert.match(edit.text, /"approval":"policy"/, `(e) --approval auto: the result does not say policy approved\n${r.context()}`);
  });

  test('(c) the model sees the summary line of the CRLF edit', () => {
    // Passes once structuredContent carries `summary`.
    const edit = resultAt(r, 1);
    assert.match(edit.text, /"summary":"[^"]*crlf\.txt[^"]*\+1 -1/,
      `the model did not see a summary naming crlf.txt and +1 -1\n${r.context()}`);
  });

  test('(d) an edit whose old_string does not occur reaches the model as the whole error message', async () => {
    const error = resultAt(r, 2);
    assert.equal(error.isError, true, `the failed edit did not reach the model as an error\n${r.context()}`);
    assert.ok(error.text.includes('old_string was not found in the file'), `error text lacks its cause\n${r.context()}`);
    const message = await referenceError(r.s.project, modelCalls('', 'missing')[0]);
    assert.ok(error.text.includes(message),
      `the model did not see the whole error message:\n${message}\n${r.context()}`);
  });

  test('(f) changes puts the session patch in front of the model: the CRLF edit, once, with its summary', (t) => {
    // The model sees JSON.stringify(structuredContent): summary, patch and files must all be there.
    const changes = resultAt(r, 3);
    assert.equal(changes.isError, false, `changes failed\n${r.context()}`);
    const seen = JSON.parse(changes.text);
    t.diagnostic(`the model saw: ${changes.text.slice(0, 400)}`);
    assert.match(seen.summary ?? '', /1 file/, `the summary does not count one file\n${r.context()}`);
    assert.ok(seen.patch?.includes('--- a/crlf.txt') && seen.patch.includes('+++ b/crlf.txt'),
      `the patch does not name crlf.txt relative to the root\n${r.context()}`);
    assert.ok(seen.patch.includes('-two\r\n') && seen.patch.includes('+TWO\r\n'),
      `the patch does not keep the CRLF line bytes\n${r.context()}`);
    assert.equal(seen.files?.length, 1, `files does not list exactly crlf.txt\n${r.context()}`);
  });
});

describe('claude -p, default --approval ask, no hook: -p cancels the form by itself', () => {
  let r;
  before(async () => {
    r = await runClaude({ names: ['edit'] });
  }, { timeout: 90000 });

  test('(e) nothing is written and the model gets an error', () => {
    assert.equal(r.run.code, 0, `claude failed\n${r.context()}`);
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), fixtures()['crlf.txt'],
      `crlf.txt changed although the form was not accepted\n${r.context()}`);
    const res = resultAt(r, 0);
    assert.equal(res.isError, true, `a cancelled approval did not reach the model as an error\n${r.context()}`);
  });

  test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  test('(e) the error blames no user and names --approval auto and the Elicitation hook', () => {
    // Target behaviour of the server change.
    const res = resultAt(r, 0);
    assert.ok(!res.text.includes('The user cancelled') && !res.text.includes('The user declined'),
      `the error blames a user although -p answered by itself\n${r.context()}`);
    assert.ok(res.text.includes('--approval auto'), `the error does not name --approval auto\n${r.context()}`);
    assert.ok(res.text.includes('Elicitation'), `the error does not name Claude Code's Elicitation hook\n${r.context()}`);
  });
});

test('claude -p, default --approval ask, Elicitation hook answers apply: the edit is written', { timeout: 90000 }, async () => {
  let hookInput;
  const r = await runClaude({
    names: ['edit'],
    settings: (home) => {
      hookInput = path.join(home, 'elicitation-hook-input.json');
      return { hooks: { Elicitation: [{ matcher: 'edit', hooks: [{ type: 'command', command: acceptHook(hookInput) }] }] } };
    },
  });
  assert.equal(r.run.code, 0, `claude failed\n${r.context()}`);
  assert.ok(fs.existsSync(hookInput), `the Elicitation hook never ran\n${r.context()}`);
  const form = JSON.parse(fs.readFileSync(hookInput, 'utf8'));
  assert.equal(form.mcp_server_name, 'edit', `hook input: ${JSON.stringify(form)}`);
  assert.ok(form.message.includes('+TWO'), `the form's message lacks the diff: ${JSON.stringify(form)}`);
  assert.ok(form.requested_schema?.properties?.decision, `the form has no decision field: ${JSON.stringify(form)}`);

  assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED,
    `crlf.txt is not the applied edit although the hook answered apply\n${r.context()}`);
  const res = resultAt(r, 0);
  assert.equal(res.isError, false, `the approved edit failed\n${r.context()}`);
  assert.ok(holds(res.text, '\n+TWO\n'), `the model did not see the diff\n${r.context()}`);
  assert.match(res.text, /"approval":"user"/, `the result does not say a user approved\n${r.context()}`);
  assertCleanEnd(r);
});

describe('claude -p, --approval auto: with no other file tool, one run lists, finds, greps, reads, edits, moves and deletes', () => {
  // Issue 25: Claude Desktop (and a Claude Code run with only mcp-edit) finds its way through a
  // project with list, find and grep, and changes files with move and delete. The model sees each
  // result as JSON.stringify(structuredContent), so these assertions read that JSON.
  const steps = [
    { tool: 'list', args: {} },
    { tool: 'find', args: { pattern: '**/n*.txt' } },
    { tool: 'grep', args: { pattern: '\\btwo\\b' } },
    { tool: 'read', args: { file_paths: ['crlf.txt', 'no-final-newline.txt'] } },
    modelCalls('', 'edit')[0],
    { tool: 'move', args: { from: 'notes.txt', to: 'archive/notes.txt' } },
    { tool: 'delete', args: { file_path: 'no-final-newline.txt' } },
    { tool: 'list', args: {} },
    { tool: 'changes', args: {} },
  ];
  let r;
  before(async () => {
    r = await runAuto(steps, 'Find the file that says two, fix it, archive the notes and drop the unfinished file.');
  }, { timeout: 120000 });

  /** The JSON the model saw at `step`, asserting the call succeeded; the text is a test diagnostic. */
  const seenJson = (t, step) => {
    const res = resultAt(r, step);
    assert.equal(res.isError, false, `step ${step} (${steps[step].tool}) failed\n${r.context()}`);
    t.diagnostic(`the model saw for ${steps[step].tool}: ${res.text}`);
    return JSON.parse(res.text);
  };

  test('the run finishes with every step answered', () => {
    assert.equal(r.run.timedOut, false, `claude timed out\n${r.context()}`);
    assert.equal(r.run.code, 0, `claude failed\n${r.context()}`);
    assert.equal(r.mock.results.length, steps.length, `not every tool result reached the model\n${r.context()}`);
  });

  test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  test('list shows each fixture with its size and line count', (t) => {
    const seen = seenJson(t, 0);
    const files = fixtures();
    // structuredContent carries the outline as `text`: the model sees each file, its size and line count.
    assert.equal(seen.shown, Object.keys(files).length, `list shown\n${r.context()}`);
    for (const name of Object.keys(files).sort()) {
      const line = new RegExp(`\\n  ${name.replace(/\./g, '\\.')}  ${files[name].length} B`);
      assert.match(seen.text, line, `${name}: not listed with its byte count\n${r.context()}`);
    }
    assert.match(seen.text, /\n  crlf\.txt  \d+ B, 3 lines/, `crlf.txt's line count\n${r.context()}`);
    assert.equal(seen.truncated, false, `a four-file list is not whole\n${r.context()}`);
  });

  test('find lists exactly the paths the glob matches', (t) => {
    const seen = seenJson(t, 1);
    assert.match(seen.text, /^2 files match `\*\*\/n\*\.txt`:\nno-final-newline\.txt\nnotes\.txt(\n|$)/, `find files\n${r.context()}`);
    assert.equal(seen.shown, 2, `find shown\n${r.context()}`);
    assert.equal(seen.total, 2, `find total\n${r.context()}`);
  });

  test('grep shows the file and the numbered line holding the word, without the CR', (t) => {
    const seen = seenJson(t, 2);
    assert.equal(seen.matches, 1, `grep matches\n${r.context()}`);
    assert.match(seen.text, /\ncrlf\.txt\n2:two$/, `grep did not show crlf.txt then "2:two"\n${r.context()}`);
    assert.deepEqual(seen.files.map((f) => f.path), ['crlf.txt'], `grep files\n${r.context()}`);
  });

  test('read of two paths shows both files numbered', (t) => {
    const seen = seenJson(t, 3);
    for (const s of ['==> crlf.txt <==\n1\tone', numberedUnpadded(2, 'two'), '==> no-final-newline.txt <==\n1\tfirst', numberedUnpadded(2, 'second')]) {
      assert.ok(seen.text.includes(s), `the model did not see ${JSON.stringify(s)}\n${r.context()}`);
    }
  });

  test('the edit the model saw as a diff lands byte-exactly in the CRLF file', (t) => {
    const seen = seenJson(t, 4);
    assert.ok(seen.diff.includes('\n-two\n+TWO\n'), `the model did not see the diff\n${r.context()}`);
    assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, `crlf.txt is not byte-exact\n${r.context()}`);
  });

  test('move and delete change the disk and the model sees a rename and a deletion', (t) => {
    const moved = seenJson(t, 5);
    assert.ok(moved.diff.includes('rename from notes.txt\nrename to archive/notes.txt'), `move diff\n${r.context()}`);
    const deleted = seenJson(t, 6);
    assert.ok(deleted.diff.includes('+++ /dev/null') && deleted.diff.includes('-second'), `delete diff\n${r.context()}`);
    assert.deepEqual(projectFile(r.s.project, 'archive/notes.txt'), fixtures()['notes.txt'], `the moved file\n${r.context()}`);
    assert.equal(fs.existsSync(path.join(r.s.project, 'notes.txt')), false, `notes.txt is still there\n${r.context()}`);
    assert.equal(fs.existsSync(path.join(r.s.project, 'no-final-newline.txt')), false, `the deleted file is there\n${r.context()}`);
    assert.deepEqual(projectFile(r.s.project, 'latin1.txt'), fixtures()['latin1.txt'], `latin1.txt changed\n${r.context()}`);
  });

  test('the second list and the session patch show the moved and deleted files', (t) => {
    const after = seenJson(t, 7);
    assert.match(after.text, /^\.\/\n  archive\/\n    notes\.txt  [^\n]*\n  crlf\.txt  [^\n]*\n  latin1\.txt  [^\n]*(\n|$)/,
      `list after the changes\n${r.context()}`);
    const changes = seenJson(t, 8);
    for (const s of ['rename from notes.txt', '--- a/no-final-newline.txt\n+++ /dev/null', '+TWO\r\n']) {
      assert.ok(changes.patch.includes(s), `the session patch lacks ${JSON.stringify(s)}\n${r.context()}`);
    }
  });
});

describe('claude -p, --approval auto: a write of "# ... rest of the code unchanged ..." over three functions', () => {
  // Issue 42: the silent loss users of agent file tools report most. Even with every change
  // approved by policy, the write is refused, the model reads which lines it would have dropped
  // and what to send instead, and the file keeps its three functions.
  const original = 'def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n';
  const steps = [
    { tool: 'read', args: { file_path: 'a.py' } },
    { tool: 'write', args: { file_path: 'a.py', content: 'def a(): return 10\n# ... rest of the code unchanged ...\n' } },
  ];
  let r;
  before(async () => {
    r = await runAuto(steps, 'Make a() return 10.', (project) => fs.writeFileSync(path.join(project, 'a.py'), original));
  }, { timeout: 120000 });

  test('the run finishes with both steps answered', () => {
    assert.equal(r.run.code, 0, `claude failed\n${r.context()}`);
    assert.equal(r.mock.results.length, steps.length, `not every tool result reached the model\n${r.context()}`);
  });
  test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));
  test('the model reads the refusal: the marker, the lines it would drop, what to send instead', () => {
    const res = resultAt(r, 1);
    assert.equal(res.isError, true, `the elided write was not refused\n${r.context()}`);
    for (const words of ['`# ... rest of the code unchanged ...`', 'is an elision marker', 'lines 1-2, 5-6, 9-10',
      'Nothing was written', 'Send the whole content']) {
      assert.ok(res.text.includes(words), `the model did not read ${JSON.stringify(words)}; it saw: ${res.text}`);
    }
  });
  test('a.py keeps its three functions, byte for byte', () => {
    assert.equal(projectFile(r.s.project, 'a.py').toString('utf8'), original, `a.py changed\n${r.context()}`);
  });
});
