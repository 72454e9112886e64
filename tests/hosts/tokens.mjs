// The token table of issue 26: what each host's model pays (o200k tokens) for mcp-edit's results — a read of a
// real source file, a change, an error — and for its tool definitions, beside server-filesystem and the file itself.
//
// Not a test (npm test runs *.test.mjs only): a measurement, run by `scripts/bench --only=tokens` or
// `node tests/hosts/tokens.mjs [--hosts=claude,codex,...] [--requests=DIR]`. Each host of the matrix runs once,
// headless, against its mock model (the mocks of this directory), which plays: read FILE, an edit of one line
// of it, an edit whose old_string is not in it, then a final answer. What the host handed its model is taken
// from the requests the mock recorded: each tool result as the mock records it (script.seen: the text the
// model reads, a non-string JSON-stringified) and the server's tool definitions from the last conversation
// request's `tools` (JSON of the entries, as the host sent them). The tokens of mcp-edit's own reply (no host:
// content[0].text, and structuredContent as JSON) and of its tools/list are counted too. Prints markdown to
// stdout and writes bench/tokens-results.json (the numbers and the texts); --requests=DIR also saves every
// conversation request body a host sent, one JSON file per host.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { BINARY, REPO, TOOLS, bounded, runScripted, serverArgs, waitForBinary } from './harness.mjs';
import { startAnthropicMock } from './mock_anthropic.mjs';
import { startChatMock } from './mock_chat_completions.mjs';
import { startGeminiMock } from './mock_gemini.mjs';
import { startResponsesMock } from './mock_openai_responses.mjs';

/** The file read and changed: a real source file of this repository (~4,000 o200k tokens, 352 lines). */
const FILE = 'text/match/near_miss.cpp';
/** The change: one line of FILE, made once. */
const OLD = 'constexpr std::size_t kMaxProbes = 6;';
const NEW = 'constexpr std::size_t kMaxProbes = 7;';
/** An old_string that is in no file. */
const MISSING = 'constexpr std::size_t kNoSuchConstant = 42;';
const FS_SERVER = path.join(REPO, 'bench', 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

const tokens = (text) => encode(text).length;
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** The model's three calls for mcp-edit ("edit") or server-filesystem ("fs"), on FILE in `project`. */
function calls(server, project) {
  const file = path.join(project, path.basename(FILE));
  if (server === 'fs') {
    return [
      { tool: 'read_text_file', args: { path: file } },
      { tool: 'edit_file', args: { path: file, edits: [{ oldText: OLD, newText: NEW }] } },
      { tool: 'edit_file', args: { path: file, edits: [{ oldText: MISSING, newText: 'x' }] } },
    ];
  }
  return [
    { tool: 'read', args: { file_path: file } },
    { tool: 'edit', args: { file_path: file, old_string: OLD, new_string: NEW } },
    { tool: 'edit', args: { file_path: file, old_string: MISSING, new_string: 'x' } },
  ];
}

/** The server's stdio command: mcp-edit (--approval auto) or server-filesystem, rooted at `project`. */
function serverCommand(server, project) {
  if (server === 'fs') return { command: process.execPath, args: [FS_SERVER, project] };
  return { command: BINARY, args: serverArgs(project, ['--approval', 'auto']) };
}

/** Is `name` a tool of MCP server `server` as a host spells it (mcp__edit__read, mcp_edit_read, edit_read, namespace mcp__edit)? */
const ofServer = (name, server) => new RegExp(`^(mcp__${server}(__.+)?|mcp_${server}_.+|${server}_.+)$`).test(name ?? '');

/** The entries of a request's `tools` that belong to `server`, in every protocol's shape (Gemini's declarations unpacked). */
function serverTools(body, server) {
  const out = [];
  for (const t of body?.tools || []) {
    for (const fd of t.functionDeclarations || t.function_declarations || []) if (ofServer(fd.name, server)) out.push(fd);
    if (ofServer(t.name ?? t.function?.name, server)) out.push(t);
  }
  return out;
}

/** The tool name for `step` among `names`: the server's spelling of step.tool, never a built-in of the same name. */
function route(server) {
  return (step, names) => {
    const name = names.find((n) => new RegExp(`(^|_)${server}_+${step.tool}$`).test(n));
    if (!name) throw new Error(`no ${server} tool ${step.tool} among ${names.join(', ')}`);
    return { name, args: step.args };
  };
}

const tomlStr = (s) => JSON.stringify(s);

/** The hosts: how each is configured (the same as its *.test.mjs) and which mock plays its model. */
const HOSTS = {
  claude: {
    label: 'Claude Code 2.1.328',
    startMock: (server) => (script) => startAnthropicMock(script, { server }),
    setup: (server) => ({ home, project, mock }) => {
      const config = path.join(home, 'mcp.json');
      fs.writeFileSync(config, JSON.stringify({ mcpServers: { [server]: { type: 'stdio', ...serverCommand(server, project) } } }));
      return {
        args: ['-p', 'Work on the files in this folder with the tools.', '--mcp-config', config, '--strict-mcp-config',
          '--allowedTools', `mcp__${server}`, '--output-format', 'json'],
        env: { ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-dummy-for-mock', ENABLE_TOOL_SEARCH: 'false' },
      };
    },
  },
  codex: {
    label: 'Codex 0.169.0',
    startMock: () => startResponsesMock,
    setup: (server) => ({ home, project, mock }) => {
      const codexHome = path.join(home, '.codex');
      fs.mkdirSync(codexHome);
      const cmd = serverCommand(server, project);
      fs.writeFileSync(path.join(codexHome, 'config.toml'), [
        'model = "mock-model"', 'model_provider = "mock"', 'approval_policy = "never"', 'sandbox_mode = "workspace-write"',
        'check_for_update_on_startup = false', '', '[analytics]', 'enabled = false', '',
        '[features]', 'plugins = false', 'apps = false', '',
        '[model_providers.mock]', 'name = "mock"', `base_url = ${tomlStr(mock.baseUrl)}`, 'wire_api = "responses"',
        'env_key = "MOCK_OPENAI_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', '',
        `[mcp_servers.${server}]`, `command = ${tomlStr(cmd.command)}`, `args = [${cmd.args.map(tomlStr).join(', ')}]`,
        'startup_timeout_sec = 30', 'tool_timeout_sec = 60', 'default_tools_approval_mode = "approve"', '',
      ].join('\n'));
      return {
        args: ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', 'Use the tools as instructed.'],
        env: { CODEX_HOME: codexHome, MOCK_OPENAI_API_KEY: 'mock-key', RUST_LOG: 'error' },
      };
    },
  },
  gemini: {
    label: 'Gemini CLI 0.61.0',
    startMock: (server) => (script) => startGeminiMock(script, { server }),
    setup: (server) => ({ base, home, project, mock }) => {
      fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
      fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        mcpServers: { [server]: { ...serverCommand(server, project), trust: true } },
      }));
      return {
        args: ['-p', 'Use the tools on the files here.', '--approval-mode', 'yolo', '--output-format', 'json'],
        env: {
          GEMINI_API_KEY: 'mock-key-not-real', GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_CLI_NO_RELAUNCH: 'true',
          GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'no-system-settings.json'),
        },
      };
    },
  },
  qwen: {
    label: 'Qwen Code 0.24.4',
    note: 'alwaysLoadTools: by default Qwen Code defers MCP tools behind its tool_call bridge and names them only',
    startMock: (server) => (script) => startChatMock(script, { route: route(server) }),
    setup: (server) => ({ home, project, mock }) => {
      fs.mkdirSync(path.join(home, '.qwen'));
      fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({
        mcpServers: { [server]: { ...serverCommand(server, project), alwaysLoadTools: true } },
        security: { auth: { selectedType: 'openai' } },
        telemetry: { enabled: false },
        privacy: { usageStatisticsEnabled: false },
        general: { enableAutoUpdate: false },
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
      }));
      return {
        args: ['-p', 'Use the tools on the files here.', '--yolo'],
        env: { OPENAI_API_KEY: 'dummy', OPENAI_BASE_URL: mock.baseURL, OPENAI_MODEL: 'mock-model',
          QWEN_USAGE_STATISTICS_ENABLED: 'false', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' },
      };
    },
  },
  opencode: {
    label: 'opencode 1.18.33',
    startMock: (server) => (script) => startChatMock(script, { route: route(server) }),
    setup: (server) => ({ base, home, project, mock }) => {
      const configFile = path.join(base, 'config', 'opencode.json');
      fs.mkdirSync(path.dirname(configFile));
      const cmd = serverCommand(server, project);
      fs.writeFileSync(configFile, JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        provider: { mock: { npm: '@ai-sdk/openai-compatible', name: 'Mock', options: { baseURL: mock.baseURL, apiKey: 'dummy' },
          models: { 'mock-model': { name: 'Mock model', tool_call: true } } } },
        model: 'mock/mock-model',
        small_model: 'mock/mock-model',
        mcp: { [server]: { type: 'local', command: [cmd.command, ...cmd.args], enabled: true } },
        permission: 'allow',
        autoupdate: false,
        share: 'disabled',
      }));
      // As opencode.test.mjs: @opencode-ai/plugin "installed" already, so opencode downloads nothing.
      const globalConfig = path.join(home, '.config', 'opencode');
      fs.mkdirSync(path.join(globalConfig, 'node_modules'), { recursive: true });
      const deps = { dependencies: { '@opencode-ai/plugin': '1.18.33' } };
      fs.writeFileSync(path.join(globalConfig, 'package.json'), JSON.stringify(deps));
      fs.writeFileSync(path.join(globalConfig, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': deps } }));
      return {
        args: ['run', 'Use the tools on the files here.'],
        env: { OPENCODE_CONFIG: configFile, OPENCODE_DISABLE_PROJECT_CONFIG: '1', OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_MODELS_URL: `${mock.url}/models-dev-trap`, OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
          npm_config_registry: `${mock.url}/npm-registry-trap/` },
      };
    },
  },
};

/** One host run with `server`: {results: [{tokens, text}] per call, tools: {count, tokens}, bodies} or {error}. */
async function measureHost(host, server) {
  const h = HOSTS[host];
  const r = await runScripted({
    host,
    steps: (project) => {
      fs.copyFileSync(path.join(REPO, FILE), path.join(project, path.basename(FILE)));
      return calls(server, project);
    },
    startMock: h.startMock(server),
    setup: h.setup(server),
    timeoutMs: 150000,
  });
  const bodies = r.mock.requests.map((q) => q.body).filter((b) => serverTools(b, server).length > 0);
  const results = [0, 1, 2].map((step) => {
    const text = r.script.seen.find((x) => x.step === step)?.text;
    return text === undefined ? null : { tokens: tokens(text), text };
  });
  if (!bodies.length || results.includes(null)) {
    return { error: `the run did not complete (exit ${r.run.code}${r.run.timedOut ? ', timed out' : ''}): ` +
      `${results.filter(Boolean).length} of 3 results reached the model\n${r.context().slice(-3000)}` };
  }
  const defs = serverTools(bodies[bodies.length - 1], server);
  const count = defs.reduce((n, d) => n + (Array.isArray(d.tools) ? d.tools.length : 1), 0);
  // How much of the file reached the model: hosts cut long results (Codex keeps head and tail, Qwen Code
  // saves the whole to a file and shows a 2,000-character preview), which a token count alone would hide.
  const all = fs.readFileSync(path.join(REPO, FILE), 'utf8').split('\n');
  const distinct = all.filter((l) => l.trim().length >= 20);
  const esc = (x) => JSON.stringify(x).slice(1, -1);
  const seen = (l) => [l, esc(l), esc(esc(l))].some((v) => results[0].text.includes(v));
  const shown = distinct.filter(seen).length;
  const readShare = shown / distinct.length;
  // A paged read shows lines 1..last (up to the first distinct line not shown): its tokens
  // against those lines' own.
  let last = all.length;
  for (let i = 0; i < all.length; ++i) if (all[i].trim().length >= 20 && !seen(all[i])) { last = i; break; }
  const shownLines = { last, tokens: tokens(all.slice(0, last).join('\n') + '\n') };
  const edited = fs.readFileSync(path.join(r.s.project, path.basename(FILE)), 'utf8').includes(NEW);
  return { results, readShare, shownLines, edited, tools: { count, tokens: tokens(JSON.stringify(defs)) }, bodies };
}

/** A JSON-RPC session with a stdio server: initialize, then `requests` in order; resolves to their results. */
async function ask({ command, args }, requests) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const replies = new Map();
  let wake = () => {};
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    try { const m = JSON.parse(line); if (m.id !== undefined && !m.method) { replies.set(m.id, m); wake(); } } catch { /* not ours */ }
  });
  const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  const reply = (id) => bounded(new Promise((resolve) => {
    const check = () => (replies.has(id) ? resolve(replies.get(id)) : (wake = check));
    check();
  }), 20000, `${path.basename(args[0] ?? command)}: reply ${id}`);
  try {
    send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tokens', version: '1' } } });
    await reply(0);
    send({ method: 'notifications/initialized' });
    const out = [];
    for (const [i, q] of requests.entries()) {
      send({ id: i + 1, ...q });
      const m = await reply(i + 1);
      out.push(m.result ?? m.error);
    }
    return out;
  } finally {
    child.stdin.end();
    child.kill();
  }
}

/** The server's own replies (no host): tokens of content[0].text and of structuredContent as JSON per call, and of tools/list. */
async function measureServer(server) {
  const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-edit-tokens-')));
  try {
    fs.copyFileSync(path.join(REPO, FILE), path.join(project, path.basename(FILE)));
    const own = calls(server, project);
    const [list, ...replies] = await ask(serverCommand(server, project),
      [{ method: 'tools/list' }, ...own.map((c) => ({ method: 'tools/call', params: { name: c.tool, arguments: c.args } }))]);
    return {
      results: replies.map((res) => ({
        content: tokens((res.content || []).map((c) => c.text ?? '').join('\n')),
        structured: res.structuredContent === undefined ? null : tokens(JSON.stringify(res.structuredContent)),
      })),
      tools: { count: list.tools.length, tokens: tokens(JSON.stringify(list.tools)) },
    };
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}

const fmt = (n, base) => (base ? `${n} (${(n / base).toFixed(2)}×)` : `${n}`);

async function main() {
  await waitForBinary();
  const fileTokens = tokens(fs.readFileSync(path.join(REPO, FILE), 'utf8'));
  const hostList = (option('hosts') || Object.keys(HOSTS).join(',')).split(',');
  const haveFs = fs.existsSync(FS_SERVER);
  const runs = [];
  for (const host of hostList) {
    for (const server of ['edit', ...(haveFs && host === 'claude' ? ['fs'] : [])]) {
      process.stderr.write(`tokens: ${host} with ${server === 'fs' ? 'server-filesystem' : 'mcp-edit'}…\n`);
      let m;
      try { m = await measureHost(host, server); } catch (e) { m = { error: String(e.stack || e) }; }
      if (m.error) process.stderr.write(`tokens: ${host}/${server} not measured: ${m.error}\n`);
      runs.push({ host, server, ...m });
    }
  }
  const direct = { edit: await measureServer('edit'), ...(haveFs ? { fs: await measureServer('fs') } : {}) };

  const dir = option('requests');
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    for (const r of runs) if (r.bodies) fs.writeFileSync(path.join(dir, `${r.host}-${r.server}.json`), JSON.stringify(r.bodies, null, 2));
  }

  const name = (server) => (server === 'fs' ? 'server-filesystem' : 'mcp-edit');
  const rows = [];
  for (const [server, d] of Object.entries(direct)) {
    rows.push([`${name(server)}, content[] (no host)`, fmt(d.results[0].content, fileTokens), d.results[1].content, d.results[2].content, `${d.tools.tokens} (${d.tools.count} tools, tools/list JSON)`]);
    if (d.results.some((x) => x.structured !== null)) {
      const s = (x) => (x.structured === null ? '—' : x.structured);
      rows.push([`${name(server)}, structuredContent JSON (no host)`, d.results[0].structured === null ? '—' : fmt(d.results[0].structured, fileTokens), s(d.results[1]), s(d.results[2]), '']);
    }
  }
  for (const r of runs) {
    const label = `${name(r.server)} in ${HOSTS[r.host].label}`;
    if (r.error) { rows.push([label, 'not measured', '', '', '']); continue; }
    const cut = r.readShare < 0.999
      ? `, cut: ${Math.round(r.readShare * 100)}% of the file's lines shown (lines 1–${r.shownLines.last}: ` +
        `${(r.results[0].tokens / r.shownLines.tokens).toFixed(2)}× their tokens)`
      : '';
    rows.push([label, `${fmt(r.results[0].tokens, fileTokens)}${cut}`, `${r.results[1].tokens}${r.edited ? '' : ' (not written)'}`, r.results[2].tokens, `${r.tools.tokens} (${r.tools.count} tools)`]);
  }
  const table = [
    `o200k tokens the model is handed; file: ${FILE} (${fileTokens} tokens, ${fs.readFileSync(path.join(REPO, FILE), 'utf8').split('\n').length - 1} lines); read × = tokens / file tokens`,
    '',
    '| where | read | change (one line) | error (old text not found) | tool definitions |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  console.log(table);
  for (const r of runs.filter((x) => x.error)) console.log(`\n${r.host} with ${name(r.server)}: not measured: ${r.error.split('\n')[0]}`);
  fs.writeFileSync(path.join(REPO, 'bench', 'tokens-results.json'), `${JSON.stringify({
    file: FILE, fileTokens, direct,
    hosts: runs.map(({ bodies, ...r }) => r),
  }, null, 2)}\n`);
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
