// opencode (opencode-ai 1.18.33, a native binary; `opencode run`, headless) driving mcp-edit,
// with its model played by the mock OpenAI Chat Completions endpoint (mock_chat_completions.mjs).
//
// Why: opencode is a real MCP host; this checks what its model is shown of mcp-edit's tools and
// results (brief items a-e) and that calls work when its working directory, which it sends as
// the client's root, lies outside --root.
//
// How opencode is set up: a scratch HOME/XDG dirs and OPENCODE_CONFIG naming an opencode.json
// with a custom provider "mock" (npm "@ai-sdk/openai-compatible", bundled in the binary) whose
// baseURL is the mock, model and small_model "mock/mock-model", `mcp.edit` (type local, command
// [mcp-edit, ...args]), `permission: "allow"`, no autoupdate or sharing. Kept offline:
// OPENCODE_DISABLE_MODELS_FETCH (no models.dev catalogue; OPENCODE_MODELS_URL points at the mock
// anyway), project config files ignored, and the global config dir pre-seeded with an empty
// node_modules and a package.json/package-lock.json that already list @opencode-ai/plugin:
// otherwise opencode npm-installs that package there in the background at every start (it
// reached registry.npmjs.org when tried). npm_config_registry points at the mock, so any
// install it still tries lands there and fails the test instead of leaving the machine.
//
// What opencode does (1.18.33): the tools are functions named edit_<tool> (server name, "_",
// tool), next to its built-in `edit`, `read` and `write`. It declares roots (its working
// directory) but not elicitation, protocol 2025-11-25. A result reaches the model as the
// content[] texts joined by "\n\n"; structuredContent is dropped; an isError result is its
// content[] text as is, nothing added. Its first request is a title request without tools.
// After every tools/call it sends notifications/cancelled for that (already answered) request.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  TOOLS, assertCleanEnd, lines, modelCalls, numbered, referenceError, serverArgs, serverLog, watchedServer,
} from './harness.mjs';
import { issue42Steps, issue42Subtests, writeIssue42Files } from './issue42.mjs';
import { askWritesAtOnce, assertEdited, outsideRootWorks, runChatHost } from './mock_chat_completions.mjs';

const ocName = (tool) => `edit_${tool}`;
/** Paths on the mock that stand in for the npm registry and models.dev: never to be asked. */
const NPM_TRAP = '/npm-registry-trap';
const MODELS_TRAP = '/models-dev-trap';

/**
 * How the mock model calls an mcp-edit tool in opencode: exactly edit_<tool> (the harness's
 * pickTool would take the shorter built-in `edit` for "edit").
 */
function routeOpencode(step, names) {
  const name = ocName(step.tool);
  if (!names.includes(name)) throw new Error(`opencode offers no ${name}: ${names.join(', ')}`);
  return { name, args: step.args };
}

/**
 * Writes opencode.json (the mock provider, the edit server: a watchedServer()) and the pre-seeded
 * global config dir; returns {configFile, watch}.
 */
function configure({ base, home, project, mock }, serverFlags) {
  const configFile = path.join(base, 'config', 'opencode.json');
  fs.mkdirSync(path.dirname(configFile));
  const server = watchedServer(base, serverArgs(project, serverFlags));
  fs.writeFileSync(configFile, JSON.stringify({
    $schema: 'https://opencode.ai/config.json',
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: mock.baseURL, apiKey: 'dummy' },
        models: { 'mock-model': { name: 'Mock model', tool_call: true } },
      },
    },
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    mcp: {
      edit: { type: 'local', command: [server.command, ...server.args], enabled: true },
    },
    permission: 'allow',
    autoupdate: false,
    share: 'disabled',
  }, null, 2));
  // The global config dir with @opencode-ai/plugin already "installed" (see the top comment).
  const globalConfig = path.join(home, '.config', 'opencode');
  fs.mkdirSync(path.join(globalConfig, 'node_modules'), { recursive: true });
  const deps = { dependencies: { '@opencode-ai/plugin': '1.18.33' } };
  fs.writeFileSync(path.join(globalConfig, 'package.json'), JSON.stringify(deps));
  fs.writeFileSync(path.join(globalConfig, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': deps } }));
  return { configFile, watch: server.watch };
}

/**
 * One headless opencode run against a fresh scratch project (runChatHost). `steps(project)` gives
 * the model's tool calls; `flags` are mcp-edit flags after serverArgs(); `outside` runs opencode
 * from a directory next to the project instead of the project (--root stays the project);
 * `prepare(project)` adds files first. The result also has `downloads`: the requests that reached the npm registry or models.dev traps.
 */
async function runOpencode({ steps, flags = [], outside = false, prepare = () => {} }) {
  const r = await runChatHost({
    host: 'opencode',
    steps,
    outside,
    timeoutMs: 120000,
    route: routeOpencode,
    setup: (area) => {
      prepare(area.project);
      const log = serverLog(area.base, 'debug');
      const { configFile, watch } = configure(area, [...flags, ...log.flags]);
      return {
        watch,
        args: ['run', 'Use the edit tools on the files here.'],
        env: {
          OPENCODE_CONFIG: configFile,
          OPENCODE_DISABLE_PROJECT_CONFIG: '1',
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_MODELS_URL: `${area.mock.url}${MODELS_TRAP}`,
          OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
          npm_config_registry: `${area.mock.url}${NPM_TRAP}/`,
        },
        log,
      };
    },
  });
  const downloads = r.mock.requests.filter((q) => q.url.startsWith(NPM_TRAP) || q.url.startsWith(MODELS_TRAP));
  return { ...r, downloads };
}

describe('opencode 1.18.33 with mcp-edit', { concurrency: true }, () => {
  test('cwd = project = --root, --approval auto: tools, read, edit, error', async (t) => {
    const r = await runOpencode({
      flags: ['--approval', 'auto'],
      steps: (p) => modelCalls(p, 'read', 'edit', 'missing'),
    });
    t.diagnostic(`one run: ${r.run.ms} ms; functions: ${r.mock.toolNames.join(', ')}; side requests: ${r.mock.sideRequests.length}`);
    assert.equal(r.run.timedOut, false, r.context());
    assert.equal(r.run.code, 0, r.context());
    assert.deepEqual(r.downloads.map((q) => `${q.method} ${q.url}`), [], `opencode tried to download\n${r.context()}`);

    // (a) All thirteen tools are functions named edit_<tool>.
    for (const tool of TOOLS) {
      assert.ok(r.mock.toolNames.includes(ocName(tool)), `${ocName(tool)} not offered: ${r.mock.toolNames.join(', ')}\n${r.context()}`);
    }
    assert.equal(r.mock.turns.filter((x) => x.kind === 'tool').length, 3, r.context());

    // (b) read: the numbered lines reach the model.
    assert.ok(lines(r.seen(0)).includes(numbered(2, 'beta line')), `read's numbered text did not reach the model\n${r.context()}`);

    // (c) edit: byte-exact on disk; the diff and the summary reach the model.
    assertEdited(r, 1);

    // (d) the error: the whole message mcp-edit gives (asked directly, same file state) is what
    // the model reads.
    const message = await referenceError(r.s.project, modelCalls(r.s.project, 'missing')[0]);
    assert.match(message, /old_string was not found in the file/);
    assert.ok(r.seen(2).includes(message), `the model did not get the whole error message ${JSON.stringify(message)}\n${r.context()}`);
    assertCleanEnd(r);
  });

  test('approval: default --approval ask (opencode declares no elicitation): the change is written at once', async (t) => {
    const r = await askWritesAtOnce(t, runOpencode);
    assert.deepEqual(r.downloads.map((q) => `${q.method} ${q.url}`), [], `opencode tried to download\n${r.context()}`);
  });

  test('issue 42, --approval auto: a GBK file read as text and edited in GBK, then an elided write refused', async (t) => {
    const r = await runOpencode({ flags: ['--approval', 'auto'], steps: () => issue42Steps(), prepare: writeIssue42Files });
    // For the report: what opencode handed its model for the GBK read and for the refusal.
    t.diagnostic(`one run: ${r.run.ms} ms; GBK read: ${JSON.stringify(r.seen(0).slice(0, 700))}; refusal: ${JSON.stringify(r.seen(3).slice(0, 900))}`);
    assert.equal(r.run.code, 0, r.context());
    assert.deepEqual(r.downloads.map((q) => `${q.method} ${q.url}`), [], `opencode tried to download\n${r.context()}`);
    await issue42Subtests(t, r);
    await t.test('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));
  });

  test('cwd outside --root (opencode sends it as the root): calls still work', async (t) => {
    await outsideRootWorks(t, runOpencode, (text) => lines(text).includes(numbered(2, 'beta line')));
  });
});
