// Qwen Code (@qwen-code/qwen-code 0.24.4, `qwen -p`, headless) driving mcp-edit, with its model
// played by the mock OpenAI Chat Completions endpoint (mock_chat_completions.mjs).
//
// Why: Qwen Code is a real MCP host; this checks what its model is shown of mcp-edit's tools and
// results (brief items a-e) and that calls work when its working directory, which it sends as
// the client's root, lies outside --root.
//
// How Qwen Code is set up: a scratch HOME with ~/.qwen/settings.json (mcpServers.edit, auth type
// "openai", telemetry, usage statistics, auto-update and the background memory agents off) and
// OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL pointing at the mock; `--yolo` so tool calls
// run without Qwen's own confirmation. Its package asks for node >= 22; it runs on the Node 20
// this machine has (checked: the whole conversation below works).
//
// What Qwen Code does (0.24.4): MCP tools are "deferred": they are not in the request's tools[]
// but listed by name (mcp__edit__read, ...) in a system reminder, and the model reaches them
// through the `tool_call` bridge ({name, arguments}); a server with `alwaysLoadTools: true` gets
// them as first-class functions. It declares roots (its working directory) but not elicitation.
// A result reaches the model as one text: JSON.stringify(structuredContent) (left out when a
// content[] text is exactly that JSON), "\n", then the content[] texts joined by "\n"; so with
// structuredContent.text, read's lines reach the model twice. An isError result becomes
// "MCP tool 'edit' reported tool error for function call: {...} with response: [...]", with the
// server's content[] inside it JSON-escaped.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  TOOLS, assertCleanEnd, holds, lines, modelCalls, numbered, numberedUnpadded, referenceError, serverArgs, serverLog, watchedServer,
} from './harness.mjs';
import { issue42Steps, issue42Subtests, writeIssue42Files } from './issue42.mjs';
import { askWritesAtOnce, assertEdited, messagesText, outsideRootWorks, runChatHost } from './mock_chat_completions.mjs';

const mcpName = (tool) => `mcp__edit__${tool}`;

/**
 * How the mock model calls an mcp-edit tool in Qwen Code: directly when the tool is among the
 * request's functions (alwaysLoadTools), else through the `tool_call` bridge when the deferred
 * tools' reminder names it.
 */
function routeQwen(step, names, body) {
  const name = mcpName(step.tool);
  if (names.includes(name)) return { name, args: step.args };
  if (names.includes('tool_call') && messagesText(body).includes(`"${name}"`)) {
    return { name: 'tool_call', args: { name, arguments: step.args } };
  }
  throw new Error(`Qwen Code offers no way to call ${name}: functions ${names.join(', ')}`);
}

/**
 * One headless Qwen Code run against a fresh scratch project (runChatHost). `steps(project)` gives
 * the model's tool calls; `flags` are mcp-edit flags after serverArgs(); `outside` runs Qwen Code
 * from a directory next to the project instead of the project (--root stays the project);
 * `prepare(project)` adds files first.
 */
function runQwen({ steps, flags = [], alwaysLoadTools = false, outside = false, prepare = () => {} }) {
  return runChatHost({
    host: 'qwen',
    steps,
    outside,
    timeoutMs: 120000,
    route: routeQwen,
    setup: ({ base, home, project, mock }) => {
      prepare(project);
      const log = serverLog(base, 'debug');
      const server = watchedServer(base, serverArgs(project, [...flags, ...log.flags]));
      fs.mkdirSync(path.join(home, '.qwen'));
      fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({
        mcpServers: {
          edit: {
            command: server.command,
            args: server.args,
            ...(alwaysLoadTools ? { alwaysLoadTools: true } : {}),
          },
        },
        security: { auth: { selectedType: 'openai' } },
        telemetry: { enabled: false },
        privacy: { usageStatisticsEnabled: false },
        general: { enableAutoUpdate: false },
        // The managed memory agents would add model requests of their own after the answer.
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
      }, null, 2));
      return {
        args: ['-p', 'Use the edit tools on the files here.', '--yolo'],
        env: {
          OPENAI_API_KEY: 'dummy',
          OPENAI_BASE_URL: mock.baseURL,
          OPENAI_MODEL: 'mock-model',
          QWEN_USAGE_STATISTICS_ENABLED: 'false',
          QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        },
        log,
        watch: server.watch,
      };
    },
  });
}

/** The first line of a result when it is a JSON object: the structuredContent Qwen Code prepends. */
function structuredPart(text) {
  try {
    const v = JSON.parse(text.split('\n')[0]);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch { return undefined; }
}

describe('Qwen Code 0.24.4 with mcp-edit', { concurrency: true }, () => {
  test('default config (deferred MCP tools), cwd = project = --root, --approval auto: tools, read, edit, error', async (t) => {
    const r = await runQwen({
      flags: ['--approval', 'auto'],
      steps: (p) => modelCalls(p, 'read', 'edit', 'missing'),
    });
    t.diagnostic(`one run: ${r.run.ms} ms`);
    assert.equal(r.run.timedOut, false, r.context());
    assert.equal(r.run.code, 0, r.context());

    // (a) All thirteen tools reach the model as mcp__edit__<tool>: as functions, or (the default)
    // named in the deferred-tools reminder and called through `tool_call`.
    const first = r.mock.firstToolRequest;
    assert.ok(first, `Qwen Code never asked the model with tools\n${r.context()}`);
    const offered = r.mock.toolNames;
    const reminder = messagesText(first);
    for (const tool of TOOLS) {
      assert.ok(offered.includes(mcpName(tool)) || (offered.includes('tool_call') && reminder.includes(`"${mcpName(tool)}"`)),
        `${mcpName(tool)} is neither a function (${offered.join(', ')}) nor in the deferred tools' reminder\n${r.context()}`);
    }
    t.diagnostic(`functions: ${offered.join(', ')}; calls: ${r.mock.turns.filter((x) => x.kind === 'tool').map((x) => x.name).join(', ')}`);
    assert.equal(r.mock.turns.filter((x) => x.kind === 'tool').length, 3, r.context());

    // (b) read: the numbered lines reach the model.
    // Qwen Code shows the result inside JSON: the numbers come unpadded (`2\tbeta line`, escaped).
    assert.ok(holds(r.seen(0), `\n${numberedUnpadded(2, 'beta line')}`) && !holds(r.seen(0), numbered(2, 'beta line')),
      `read's numbered text did not reach the model\n${r.context()}`);

    // (c) edit: byte-exact on disk; the diff and the summary reach the model.
    assertEdited(r, 1);

    // (d) the error: the whole message mcp-edit gives (asked directly, same file state) is in
    // what the model reads; Qwen Code embeds it JSON-escaped, with "isError":true next to it.
    const message = await referenceError(r.s.project, modelCalls(r.s.project, 'missing')[0]);
    assert.match(message, /old_string was not found in the file/);
    const error = r.seen(2);
    assert.ok(holds(error, message), `the model did not get the whole error message ${JSON.stringify(message)}\n${r.context()}`);
    assert.ok(error.includes('"isError":true'), `Qwen Code's error text no longer shows isError\n${r.context()}`);
    assertCleanEnd(r);
  });

  test('structuredContent, which Qwen Code shows as JSON before content[], carries read\'s text and the edit\'s summary (targets 1, 2)', async (t) => {
    const r = await runQwen({
      flags: ['--approval', 'auto'],
      alwaysLoadTools: true,
      steps: (p) => modelCalls(p, 'read', 'edit'),
    });
    t.diagnostic(`one run: ${r.run.ms} ms`);
    assert.equal(r.run.code, 0, r.context());
    // With alwaysLoadTools the thirteen tools are first-class functions.
    for (const tool of TOOLS) assert.ok(r.mock.toolNames.includes(mcpName(tool)), `${mcpName(tool)} not offered\n${r.context()}`);

    // Target 2: the edit's structuredContent (shown as JSON) has the diff and the summary.
    const editSc = structuredPart(r.seen(1));
    assert.ok(editSc, `Qwen Code did not prepend the edit's structuredContent\n${r.context()}`);
    assert.ok(lines(editSc.diff ?? '').includes('+TWO'), `structuredContent.diff lacks +TWO\n${r.context()}`);
    assert.equal(typeof editSc.summary, 'string', `structuredContent has no summary\n${r.context()}`);
    assert.ok(editSc.summary.includes('crlf.txt') && editSc.summary.includes('+1 -1'), `structuredContent.summary: ${editSc.summary}\n${r.context()}`);

    // Target 1: Qwen Code shows structuredContent as JSON and then the content[] texts, so read's
    // numbered lines are there once, after a JSON whose `text` points to them.
    const readSc = structuredPart(r.seen(0));
    assert.ok(readSc && readSc.text === '(the numbered lines are in the text after this JSON)' && readSc.total_lines === 3,
      `read's structuredContent (facts, and text pointing to the lines) did not reach the model\n${r.context()}`);
    assert.equal(r.seen(0).split('beta line').length - 1, 1, `the model saw line 2 other than once\n${r.context()}`);
    assertCleanEnd(r);
  });

  test('approval: default --approval ask (Qwen Code declares no elicitation): the change is written at once', async (t) => {
    await askWritesAtOnce(t, runQwen, { alwaysLoadTools: true });
  });

  test('issue 42, --approval auto: a GBK file read as text and edited in GBK, then an elided write refused', async (t) => {
    const r = await runQwen({ flags: ['--approval', 'auto'], steps: () => issue42Steps(), prepare: writeIssue42Files });
    // For the report: what Qwen Code handed its model for the GBK read and for the refusal.
    t.diagnostic(`one run: ${r.run.ms} ms; GBK read: ${JSON.stringify(r.seen(0).slice(0, 700))}; refusal: ${JSON.stringify(r.seen(3).slice(0, 900))}`);
    assert.equal(r.run.code, 0, r.context());
    await issue42Subtests(t, r);
    await t.test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));
  });

  test('cwd outside --root (Qwen Code sends it as the root): calls still work', async (t) => {
    await outsideRootWorks(t, runQwen, (text) => holds(text, numberedUnpadded(2, 'beta line')));
  });
});
