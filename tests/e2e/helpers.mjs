// Shared helpers for the end-to-end tests of mcp-edit.
//
// - where the binary and the official MCP schemas are (env MCP_EDIT_BINARY, MCP_SCHEMA_DIR);
// - temp roots and fixture files with tricky bytes, and the expected `read` result computed
//   independently from the bytes (node:crypto, TextDecoder), never copied from server output;
// - schema validation of every message the server writes (ConnectionValidator), fed either by a
//   RawSession (binary spawned directly) or by tap.mjs transcripts (client libraries);
// - checks of tool definitions (schemas compile as JSON Schema 2020-12, annotations).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '..', '..');
export const BINARY = path.resolve(process.env.MCP_EDIT_BINARY || path.join(REPO, 'build', 'mcp-edit'));
export const SCHEMA_DIR = path.resolve(process.env.MCP_SCHEMA_DIR || path.join(HERE, 'mcp-schema'));
export const TAP = path.join(HERE, 'tap.mjs');

export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
export const MODERN_VERSION = '2026-07-28';
export const PV_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
// Version used to validate what the server says before any version is known (e.g. an error
// reply to an unreadable line). The two newest schemas agree on error replies without `id`.
const DEFAULT_VERSION = '2025-11-25';

/** A value as JSON, for failure messages. */
export const show = (v) => JSON.stringify(v);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The one edit the approval tests ask about: 'two' -> 'TWO' in a three-line file.
export const ORIGINAL = 'one\ntwo\nthree\n';
export const EDITED = 'one\nTWO\nthree\n';
export const EDIT_ARGS = (file) => ({ file_path: file, old_string: 'two', new_string: 'TWO' });

export function requireBinary() {
  assert.ok(fs.existsSync(BINARY),
    `mcp-edit binary not found at ${BINARY}: build it (cmake --build build) or set MCP_EDIT_BINARY`);
}

// ---------------------------------------------------------------------------------------------
// Temp dirs and fixtures

const tempDirs = [];
process.on('exit', () => {
  if (process.env.MCP_E2E_KEEP) return;
  for (const d of tempDirs) {
    try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* best effort */ }
  }
});

/** A fresh temp directory, realpath'ed (so /tmp symlinks do not confuse path comparisons). */
export function makeTempDir(prefix = 'mcp-edit-e2e-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  tempDirs.push(dir);
  if (prefix.includes('tap')) tapDirs.push({ dir, test: currentTest() });
  return dir;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const latin1 = (s) => Buffer.from(s, 'latin1');

/** name -> raw bytes. Each one is a case `read` must report exactly. */
export function fixtureBytes() {
  const long = [];
  for (let i = 1; i <= 2500; i++) long.push(`long file line ${i}`);
  return {
    'lf.txt': Buffer.from('first line\nsecond line\nthird line\n'),
    'crlf.txt': Buffer.from('line one\r\nline two\r\nline three\r\n'),
    'cr.txt': Buffer.from('old mac one\rold mac two\rold mac three\r'),
    'mixed.txt': Buffer.from('unix\nwindows\r\nold mac\rlast line without newline'),
    'bom.txt': Buffer.concat([BOM, Buffer.from('hello\nworld\n')]),
    'bom-crlf.txt': Buffer.concat([BOM, Buffer.from('alpha\r\nbeta\r\n')]),
    'no-final-newline.txt': Buffer.from('alpha\nbeta\ngamma'),
    // Latin-1 bytes: each non-ASCII byte is followed by an ASCII byte, so every byte-level and
    // WHATWG-style decoder agrees on exactly one U+FFFD per byte.
    'latin1.txt': latin1('caf\xe9 cr\xe8me br\xfbl\xe9e\nna\xefve\nplain ascii\n'),
    'tabs.txt': Buffer.from('\tindented once\n\t\tindented twice\nmiddle\ttab\tseparated\n    four spaces\n'),
    'unicode.txt': Buffer.from('héllo wörld\n✓ check 𝄞 clef\n日本語のテキスト\n'),
    'blank-lines.txt': Buffer.from('a\n\n\nb\n'),
    'single-newline.txt': Buffer.from('\n'),
    'empty.txt': Buffer.alloc(0),
    'long.txt': Buffer.from(long.join('\n') + '\n'),
  };
}

/** Writes the fixtures into `dir`; returns name -> {name, path, bytes}. */
export function writeFixtures(dir) {
  const out = {};
  for (const [name, bytes] of Object.entries(fixtureBytes())) {
    const p = path.join(dir, name);
    fs.writeFileSync(p, bytes);
    out[name] = { name, path: p, bytes };
  }
  return out;
}

/**
 * Paths `read` must refuse, all created for real: a file outside the root (absolute,
 * through `..`, through a symlink), a directory, a FIFO (refused without blocking), a missing file.
 * Each case is [label, path, what the refusal's text must match].
 */
export function makeBoundaryCases(root) {
  const outside = makeTempDir('mcp-edit-e2e-outside-');
  const secret = path.join(outside, 'secret.txt');
  fs.writeFileSync(secret, 'outside the root\n');
  const dir = path.join(root, 'a-directory');
  fs.mkdirSync(dir, { recursive: true });
  const link = path.join(root, 'escape-link.txt');
  fs.symlinkSync(secret, link);
  const missing = path.join(root, 'does-not-exist.txt');
  const cases = [
    ['absolute path outside the root', secret, outsideRootsRe(secret, root)],
    ['".." out of the root', path.join(root, '..', path.basename(outside), 'secret.txt'), outsideRootsRe(secret, root)],
    ['symlink escaping the root', link, outsideRootsRe(link, root)],
    ['a directory', dir, new RegExp(`${escapeRe(dir)} is a directory`)],
    ['a missing file', missing, new RegExp(`File not found: ${escapeRe(missing)}`)],
  ];
  if (process.platform !== 'win32') {
    const fifo = path.join(root, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    cases.push(['a FIFO (must not block)', fifo, new RegExp(`${escapeRe(fifo)} is a FIFO`)]);
  }
  return cases;
}

/** `s` as a literal inside a RegExp. */
export const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The refusal of a path outside the roots: it names the path (as shown) and the roots. */
export const outsideRootsRe = (shown, ...roots) => new RegExp(`Refused: ${escapeRe(shown)} is outside the allowed roots \\(${roots.map(escapeRe).join(', ')}\\)`);

/** The file facts, computed from the raw bytes alone. */
export function analyzeBytes(bytes) {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let validUtf8 = true;
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    validUtf8 = false;
  }
  const body = bom ? bytes.subarray(3) : bytes;
  const rawLines = [];
  let lf = 0, crlf = 0, cr = 0, start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0x0a) {
      rawLines.push(body.subarray(start, i)); lf++; start = i + 1;
    } else if (body[i] === 0x0d) {
      rawLines.push(body.subarray(start, i));
      if (body[i + 1] === 0x0a) { crlf++; i++; } else { cr++; }
      start = i + 1;
    }
  }
  if (start < body.length) rawLines.push(body.subarray(start));
  const finalNewline = body.length > 0 && (body[body.length - 1] === 0x0a || body[body.length - 1] === 0x0d);
  const kinds = [lf && 'lf', crlf && 'crlf', cr && 'cr'].filter(Boolean);
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  return {
    bom,
    encoding: validUtf8 ? 'utf-8' : 'unknown-8bit',
    line_ending: kinds.length === 0 ? 'none' : kinds.length === 1 ? kinds[0] : 'mixed',
    final_newline: finalNewline,
    sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    size_bytes: bytes.length,
    lines: rawLines.map((l) => decoder.decode(l)),
  };
}

/** What `read` must answer for these bytes and this window. */
export function expectedRead(bytes, { offset, limit } = {}) {
  const facts = analyzeBytes(bytes);
  const total = facts.lines.length;
  const first = offset ?? 1;
  const count = limit ?? 2000;
  const last = Math.min(total, first + count - 1);
  const shown = first <= last ? facts.lines.slice(first - 1, last) : [];
  return {
    facts,
    structured: {
      total_lines: total,
      start_line: shown.length ? first : 0,
      end_line: shown.length ? last : 0,
      truncated: shown.length ? last < total : false,
      encoding: facts.encoding,
      bom: facts.bom,
      line_ending: facts.line_ending,
      final_newline: facts.final_newline,
      sha256: facts.sha256,
    },
    numbered: shown.map((line, i) => `${String(first + i).padStart(6)}\t${line}`),
  };
}


/**
 * Asserts a `read` tool result against the expectation derived from `fixture.bytes`.
 * `args` are the arguments that were sent (file_path, offset, limit).
 */
export function assertReadResult(result, fixture, args, label = fixture.name) {
  const where = `read ${label} ${show(args)}`;
  assert.ok(result && typeof result === 'object', `${where}: no result`);
  const text0 = result.content?.[0]?.text;
  assert.notEqual(result.isError, true, `${where}: isError=true, text: ${text0}`);
  assert.ok(Array.isArray(result.content) && result.content.length >= 1, `${where}: content must be a non-empty array, got ${show(result.content)}`);
  assert.equal(result.content[0].type, 'text', `${where}: content[0].type`);
  const exp = expectedRead(fixture.bytes, { offset: args.offset, limit: args.limit });
  const sc = result.structuredContent;
  assert.ok(sc && typeof sc === 'object', `${where}: structuredContent missing (got ${show(sc)})`);
  const got = {};
  for (const k of Object.keys(exp.structured)) got[k] = sc[k];
  assert.deepEqual(got, exp.structured,
    `${where}: structuredContent differs\n  expected ${show(exp.structured)}\n  got      ${show(got)}`);
  if ('size_bytes' in sc) {
    assert.equal(sc.size_bytes, fixture.bytes.length, `${where}: size_bytes`);
  }
  const okPaths = new Set([fixture.path, fs.realpathSync(fixture.path)]);
  assert.ok(okPaths.has(sc.file_path),
    `${where}: structuredContent.file_path should be the resolved absolute path ${fixture.path}, got ${show(sc.file_path)}`);

  // The text: the numbered lines first, like `cat -n`; anything after them (a paging note) must
  // not look like a numbered line.
  const text = result.content[0].text;
  assert.equal(typeof text, 'string', `${where}: content[0].text must be a string`);
  assert.ok(!/[\ud800-\udfff]/u.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')),
    `${where}: text contains lone surrogates`);
  const gotLines = text.split('\n');
  for (let i = 0; i < exp.numbered.length; i++) {
    assert.equal(gotLines[i], exp.numbered[i],
      `${where}: text line ${i + 1} differs\n  expected ${show(exp.numbered[i])}\n  got      ${show(gotLines[i])}\n  full text: ${show(text.slice(0, 600))}`);
  }
  const rest = gotLines.slice(exp.numbered.length);
  for (const extra of rest) {
    assert.ok(!/^\s*\d+\t/.test(extra),
      `${where}: extra numbered line after line ${exp.structured.end_line}: ${show(extra)}`);
  }
  if (!exp.structured.truncated && exp.numbered.length > 0) {
    const nonEmpty = rest.filter((l) => l.trim() !== '');
    assert.deepEqual(nonEmpty, [], `${where}: unexpected text after the last line of an untruncated read: ${show(rest.join('\n'))}`);
  }
  // Hosts such as Claude Code and Codex show their model only structuredContent: it must carry
  // the same numbered text.
  assert.equal(sc.text, text, `${where}: structuredContent.text must be the numbered text of content[0]; got ${show(sc.text?.slice(0, 300))}`);
  return exp;
}

/** The read cases both client tests run: [label, fixtureName, extraArgs]. */
export const READ_CASES = [
  ['LF', 'lf.txt', {}],
  ['CRLF', 'crlf.txt', {}],
  ['CR only', 'cr.txt', {}],
  ['mixed endings, no final newline', 'mixed.txt', {}],
  ['UTF-8 BOM', 'bom.txt', {}],
  ['BOM + CRLF', 'bom-crlf.txt', {}],
  ['no final newline', 'no-final-newline.txt', {}],
  ['Latin-1 bytes', 'latin1.txt', {}],
  ['tabs', 'tabs.txt', {}],
  ['non-ASCII UTF-8', 'unicode.txt', {}],
  ['blank lines', 'blank-lines.txt', {}],
  ['single newline', 'single-newline.txt', {}],
  ['empty file', 'empty.txt', {}],
  ['long file, default limit 2000', 'long.txt', {}],
  ['long file, offset 2400 limit 50', 'long.txt', { offset: 2400, limit: 50 }],
  ['long file, offset 2450 to the end', 'long.txt', { offset: 2450 }],
  ['offset 2 limit 1', 'lf.txt', { offset: 2, limit: 1 }],
];

// ---------------------------------------------------------------------------------------------
// The official MCP schemas

class McpSchemas {
  constructor(dir) {
    this.dir = dir;
    this.byVersion = new Map();
    this.cache = new Map();
  }

  versions() {
    return fs.readdirSync(this.dir).filter((v) => fs.existsSync(path.join(this.dir, v, 'schema.json'))).sort();
  }

  has(version) {
    return typeof version === 'string' && fs.existsSync(path.join(this.dir, version, 'schema.json'));
  }

  load(version) {
    let entry = this.byVersion.get(version);
    if (entry) return entry;
    const file = path.join(this.dir, version, 'schema.json');
    const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
    const is2020 = String(schema.$schema || '').includes('2020-12');
    const AjvClass = is2020 ? Ajv2020 : Ajv;
    const ajv = new AjvClass({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema(schema, 'mcp');
    const defsKey = schema.$defs ? '$defs' : 'definitions';
    entry = { ajv, schema, defsKey, defs: schema[defsKey] };
    this.byVersion.set(version, entry);
    return entry;
  }

  hasDef(version, name) {
    return Object.hasOwn(this.load(version).defs, name);
  }

  /** The first of `names` that this version defines. */
  pick(version, ...names) {
    return names.find((n) => this.hasDef(version, n));
  }

  /** null when valid, else a readable list of errors. */
  validate(version, defName, value) {
    const key = `${version}#${defName}`;
    let fn = this.cache.get(key);
    if (!fn) {
      const { ajv, defsKey } = this.load(version);
      fn = ajv.getSchema(`mcp#/${defsKey}/${defName}`);
      assert.ok(fn, `schema ${version} has no definition ${defName}`);
      this.cache.set(key, fn);
    }
    if (fn(value)) return null;
    return ajv_errors(fn.errors);
  }
}

function ajv_errors(errors) {
  return (errors || []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`).join('; ');
}

export const schemas = new McpSchemas(SCHEMA_DIR);

// The result definition of every method the server answers (server/session.cpp's method tables);
// a result to a method not listed here, or whose definition the version lacks, is a problem.
const RESULT_DEFS = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'server/discover': 'DiscoverResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'prompts/list': 'ListPromptsResult',
  'completion/complete': 'CompleteResult',
};
const SERVER_REQUEST_DEFS = {
  ping: 'PingRequest',
  'elicitation/create': 'ElicitRequest',
  'roots/list': 'ListRootsRequest',
  'sampling/createMessage': 'CreateMessageRequest',
};
const NOTIFICATION_DEFS = {
  'notifications/message': 'LoggingMessageNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/elicitation/complete': 'ElicitationCompleteNotification',
};

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const idKey = (id) => JSON.stringify(id);
const short = (s, n = 400) => (s.length > n ? s.slice(0, n) + `…(${s.length} chars)` : s);

/**
 * Follows one connection (one server process) line by line, in order, and collects every way
 * a server line breaks the official schema of the version in force or the JSON-RPC rules the
 * official clients enforce (strict envelopes, ids echoed with their JSON type).
 */
export class ConnectionValidator {
  constructor(label = 'connection') {
    this.label = label;
    this.pending = new Map(); // idKey -> {id, method, version, params}
    this.answered = new Set();
    this.legacyVersion = undefined; // from the initialize result
    this.modernVersion = undefined; // from per-request _meta
    this.clientCaps = undefined;
    this.initializedSent = false;
    this.problems = [];
    this.serverMessages = [];
  }

  problem(msg, line) {
    this.problems.push(`${this.label}: ${msg}${line ? `\n    line: ${short(line)}` : ''}`);
  }

  connectionVersion() {
    return this.legacyVersion ?? this.modernVersion ?? DEFAULT_VERSION;
  }

  isModern() {
    return this.legacyVersion === undefined && this.modernVersion !== undefined;
  }

  /** Feed one line the client wrote (string or Buffer, without the newline). */
  clientLine(line) {
    let msg;
    try {
      msg = JSON.parse(Buffer.isBuffer(line) ? line.toString('utf8') : line);
    } catch {
      return; // deliberately malformed input
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) this.clientMessage(m);
  }

  clientMessage(m) {
    if (!isPlainObject(m) || typeof m.method !== 'string') return;
    if (m.method === 'notifications/initialized') this.initializedSent = true;
    if (!('id' in m) || (typeof m.id !== 'string' && !Number.isInteger(m.id))) return;
    const metaVersion = m.params?._meta?.[PV_KEY];
    let version;
    if (typeof metaVersion === 'string') {
      version = schemas.has(metaVersion) ? metaVersion : (metaVersion >= MODERN_VERSION ? MODERN_VERSION : undefined);
      if (m.method !== 'initialize' && metaVersion >= MODERN_VERSION) {
        this.modernVersion = version ?? MODERN_VERSION;
        this.clientCaps = m.params._meta[CAPS_KEY];
      }
    }
    if (m.method === 'initialize') this.clientCaps = m.params?.capabilities;
    this.pending.set(idKey(m.id), { id: m.id, method: m.method, version, params: m.params });
  }

  /** Feed one line the server wrote (Buffer preferred, to check the bytes are UTF-8). */
  serverLine(raw, { unterminated = false } = {}) {
    const buf = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8');
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      this.problem('stdout line is not valid UTF-8', buf.toString('latin1'));
      text = buf.toString('utf8');
    }
    if (unterminated) this.problem('stdout ended with a line that has no terminating newline', text);
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      this.problem(`stdout line is not JSON (${e.message}); nothing but MCP messages may reach stdout`, text);
      return undefined;
    }
    this.serverMessages.push(msg);
    if (Array.isArray(msg)) {
      const v = this.connectionVersion();
      if (v !== '2025-03-26') this.problem(`batch (array) reply on a ${v} connection: only 2025-03-26 has batches`, text);
      else {
        const err = schemas.validate(v, 'JSONRPCBatchResponse', msg);
        if (err) this.problem(`batch reply does not match ${v} JSONRPCBatchResponse: ${err}`, text);
      }
      if (msg.length === 0) this.problem('empty batch reply', text);
      for (const m of msg) this.serverMessage(m, text);
      return msg;
    }
    this.serverMessage(msg, text);
    return msg;
  }

  serverMessage(m, text) {
    if (!isPlainObject(m)) {
      this.problem('server message is not a JSON object', text);
      return;
    }
    const keys = Object.keys(m);
    const allow = (allowed, what) => {
      const extra = keys.filter((k) => !allowed.includes(k));
      if (extra.length) this.problem(`${what} has extra top-level keys ${show(extra)} (the TS clients' envelopes are strict)`, text);
    };
    if ('method' in m) {
      if ('id' in m) {
        allow(['jsonrpc', 'id', 'method', 'params'], 'request');
        this.serverRequest(m, text);
      } else {
        allow(['jsonrpc', 'method', 'params'], 'notification');
        this.serverNotification(m, text);
      }
      return;
    }
    if ('error' in m) {
      allow(['jsonrpc', 'id', 'error'], 'error response');
      this.errorResponse(m, text);
      return;
    }
    if ('result' in m) {
      allow(['jsonrpc', 'id', 'result'], 'result response');
      this.resultResponse(m, text);
      return;
    }
    this.problem('server message is neither request, notification nor response', text);
  }

  takePending(m, text) {
    if (!('id' in m)) return undefined;
    const k = idKey(m.id);
    const req = this.pending.get(k);
    if (!req) {
      const sameValue = [...this.pending.values()].find((r) => String(r.id) === String(m.id));
      if (sameValue) this.problem(`response id ${show(m.id)} has the wrong JSON type: the request used ${show(sameValue.id)}`, text);
      else if (this.answered.has(k)) this.problem(`second response to id ${show(m.id)}`, text);
      else this.problem(`response to id ${show(m.id)}, which no request used`, text);
      return undefined;
    }
    this.pending.delete(k);
    this.answered.add(k);
    return req;
  }

  resultResponse(m, text) {
    const req = this.takePending(m, text);
    let version = req?.version ?? this.legacyVersion ?? DEFAULT_VERSION;
    if (req?.method === 'initialize' && schemas.has(m.result?.protocolVersion)) {
      version = m.result.protocolVersion;
    }
    const envDef = schemas.pick(version, 'JSONRPCResultResponse', 'JSONRPCResponse');
    const envErr = schemas.validate(version, envDef, m);
    if (envErr) this.problem(`response does not match ${version} ${envDef}: ${envErr}`, text);
    if (!req) return;
    const r = m.result;
    let def = RESULT_DEFS[req.method];
    if (def === undefined) {
      this.problem(`${req.method} was answered with a result, and no result schema is mapped for it (RESULT_DEFS in helpers.mjs)`, text);
      return;
    }
    if (req.method === 'server/discover') version = MODERN_VERSION; // only defined there
    if (version >= MODERN_VERSION && isPlainObject(r)) {
      if (r.resultType !== 'complete' && r.resultType !== 'input_required') {
        this.problem(`${req.method} result on ${version}: resultType must be "complete" or "input_required", got ${show(r.resultType)}`, text);
      }
      if (r.resultType === 'input_required') {
        def = 'InputRequiredResult';
        if (!isPlainObject(r.inputRequests) && typeof r.requestState !== 'string') {
          this.problem('input_required result carries neither inputRequests nor requestState', text);
        }
        for (const [key, ir] of Object.entries(r.inputRequests ?? {})) {
          const capName = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' }[ir?.method];
          const caps = req.params?._meta?.[CAPS_KEY];
          if (capName && !(isPlainObject(caps) && capName in caps)) {
            this.problem(`inputRequests.${key} asks for ${ir.method} but the request did not declare clientCapabilities.${capName}`, text);
          }
        }
      }
    }
    if (!schemas.hasDef(version, def)) {
      this.problem(`${req.method} was answered with a result on ${version}, whose schema has no ${def}`, text);
      return;
    }
    const err = schemas.validate(version, def, r);
    if (err) this.problem(`${req.method} result does not match ${version} ${def}: ${err}`, text);
    if (def === 'EmptyResult' && isPlainObject(r)) {
      const extra = Object.keys(r).filter((k) => k !== '_meta');
      if (extra.length) this.problem(`${req.method} must answer {} (the TS SDK parses it strictly), got keys ${show(extra)}`, text);
    }
    if (req.method === 'initialize') {
      if (schemas.has(r?.protocolVersion)) this.legacyVersion = r.protocolVersion;
      else this.problem(`initialize answered with unknown protocolVersion ${show(r?.protocolVersion)}`, text);
    }
  }

  errorResponse(m, text) {
    const req = this.takePending(m, text);
    let version = req?.version ?? this.legacyVersion ?? DEFAULT_VERSION;
    if (!('id' in m)) version = version >= MODERN_VERSION ? version : DEFAULT_VERSION; // see note at DEFAULT_VERSION
    const def = schemas.pick(version, 'JSONRPCErrorResponse', 'JSONRPCError');
    const err = schemas.validate(version, def, m);
    if (err) this.problem(`error response does not match ${version} ${def}: ${err}`, text);
    if (isPlainObject(m.error)) {
      const extra = Object.keys(m.error).filter((k) => !['code', 'message', 'data'].includes(k));
      if (extra.length) this.problem(`error object has extra keys ${show(extra)}`, text);
      if (m.error.code === -32022 && schemas.hasDef(version, 'UnsupportedProtocolVersionError')) {
        const e2 = schemas.validate(version, 'UnsupportedProtocolVersionError', m);
        if (e2) this.problem(`-32022 error does not match ${version} UnsupportedProtocolVersionError: ${e2}`, text);
      }
    }
  }

  serverRequest(m, text) {
    const version = this.connectionVersion();
    if (this.isModern()) {
      this.problem(`server sent a JSON-RPC request (${m.method}) on a ${version} connection: the modern era has no server-to-client requests`, text);
      return;
    }
    const err = schemas.validate(version, 'JSONRPCRequest', m);
    if (err) this.problem(`request does not match ${version} JSONRPCRequest: ${err}`, text);
    const def = SERVER_REQUEST_DEFS[m.method];
    if (!def || !schemas.hasDef(version, def)) {
      this.problem(`server sent request ${show(m.method)}, which ${version} does not define server-to-client`, text);
    } else {
      const e2 = schemas.validate(version, def, m);
      if (e2) this.problem(`${m.method} does not match ${version} ${def}: ${e2}`, text);
    }
    if (m.method !== 'ping' && !this.initializedSent) {
      this.problem(`server sent ${m.method} before notifications/initialized (only ping and logging allowed)`, text);
    }
    const capName = { 'elicitation/create': 'elicitation', 'roots/list': 'roots', 'sampling/createMessage': 'sampling' }[m.method];
    if (capName && !(isPlainObject(this.clientCaps) && capName in this.clientCaps)) {
      this.problem(`server sent ${m.method} but the client did not declare capabilities.${capName}`, text);
    }
  }

  serverNotification(m, text) {
    const version = this.connectionVersion();
    const err = schemas.validate(version, 'JSONRPCNotification', m);
    if (err) this.problem(`notification does not match ${version} JSONRPCNotification: ${err}`, text);
    const def = NOTIFICATION_DEFS[m.method];
    if (!def || !schemas.hasDef(version, def)) {
      this.problem(`server sent notification ${show(m.method)}, which ${version} does not define`, text);
      return;
    }
    const e2 = schemas.validate(version, def, m);
    if (e2) this.problem(`${m.method} does not match ${version} ${def}: ${e2}`, text);
  }
}

// ---------------------------------------------------------------------------------------------
// Transcripts written by tap.mjs

/**
 * Reads every tap-*.jsonl in `dir`: [{file, entries: [{dir, bytes, t}], stderr, exit}] (one per
 * process; `stderr` is the server's stderr text, `exit` its {code, signal} or undefined).
 */
export function readTapDir(dir) {
  return fs.readdirSync(dir).filter((n) => /^tap-\d+\.jsonl$/.test(n)).sort()
    .map((f) => ({ file: f, ...readTapFile(path.join(dir, f)) }));
}

function readTapFile(file) {
  const entries = [];
  let exit;
  let stderr = '';
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line);
    if (e.dir === 'exit') exit = e;
    else if (e.dir === 'err') stderr += Buffer.from(e.b64, 'base64').toString('utf8') + (e.unterminated ? '' : '\n');
    else entries.push({ dir: e.dir, t: e.t, bytes: Buffer.from(e.b64, 'base64'), unterminated: !!e.unterminated });
  }
  return { entries, stderr, exit };
}

/** Validates every transcript in a tap dir; returns {connections, problems}. */
export function validateTapDir(dir) {
  const connections = [];
  const problems = [];
  for (const t of readTapDir(dir)) {
    const v = new ConnectionValidator(t.file);
    const messages = [];
    for (const e of t.entries) {
      if (e.dir === 'c2s') {
        v.clientLine(e.bytes);
        try { messages.push({ dir: 'c2s', msg: JSON.parse(e.bytes.toString('utf8')) }); } catch { /* malformed on purpose */ }
      } else {
        const msg = v.serverLine(e.bytes, { unterminated: e.unterminated });
        if (msg !== undefined) messages.push({ dir: 's2c', msg });
      }
    }
    problems.push(...v.problems);
    connections.push({ file: t.file, validator: v, messages, exit: t.exit, stderr: t.stderr });
  }
  return { connections, problems };
}

export function assertNoProblems(problems, what) {
  assert.equal(problems.length, 0, `${what}: ${problems.length} problem(s) with what the server wrote:\n  - ${problems.join('\n  - ')}`);
}

/** Spawn parameters for the client libraries: the server behind tap.mjs. */
export function tappedServer(root, tapDir, extraArgs = []) {
  return {
    command: process.execPath,
    args: [TAP, tapDir, BINARY, '--root', root, '--no-fsync', ...extraArgs],
    stderr: 'pipe',
  };
}

/** Keeps the last `max` bytes of a stream (so a piped stderr never blocks the server). */
export function drain(stream, max = 64 * 1024) {
  const box = { text: '' };
  stream?.on('data', (c) => {
    box.text += c.toString();
    if (box.text.length > max) box.text = box.text.slice(-max);
  });
  return box;
}

// ---------------------------------------------------------------------------------------------
// Tool definitions

export const CONTRACT_TOOLS = ['read', 'edit', 'multiedit', 'write', 'insert', 'apply_diff', 'undo'];
/** What tools/list serves: the contract's tools in its order, then `changes` (the session patch), then issue 25's. */
export const SERVED_TOOLS = [...CONTRACT_TOOLS, 'changes', 'list', 'find', 'grep', 'move', 'delete'];
export const READ_FIELDS = ['file_path', 'total_lines', 'start_line', 'end_line', 'truncated', 'encoding', 'bom', 'line_ending', 'final_newline', 'sha256'];

function toolAjv() {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** Problems with one tool definition: schemas must be valid JSON Schema 2020-12 and compile. */
export function toolDefinitionProblems(tool) {
  const p = [];
  const where = `tool ${show(tool?.name)}`;
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(tool?.name ?? '')) p.push(`${where}: name breaks ^[A-Za-z0-9._-]{1,128}$`);
  if (typeof tool.title !== 'string' || !tool.title) p.push(`${where}: missing title`);
  if (typeof tool.description !== 'string' || !tool.description) p.push(`${where}: missing description`);
  if (!isPlainObject(tool.annotations)) p.push(`${where}: missing annotations`);
  for (const key of ['inputSchema', 'outputSchema']) {
    const s = tool[key];
    if (!isPlainObject(s)) { p.push(`${where}: missing ${key}`); continue; }
    if (s.type !== 'object') p.push(`${where}: ${key}.type must be "object", got ${show(s.type)}`);
    if ('$schema' in s && !String(s.$schema).includes('2020-12')) p.push(`${where}: ${key}.$schema is ${show(s.$schema)}, expected JSON Schema 2020-12`);
    const ajv = toolAjv();
    if (!ajv.validateSchema(s)) p.push(`${where}: ${key} is not valid against the 2020-12 meta-schema: ${ajv_errors(ajv.errors)}`);
    try { ajv.compile(s); } catch (e) { p.push(`${where}: ${key} does not compile as JSON Schema 2020-12 (strict): ${e.message}`); }
  }
  return p;
}

/** A validator for a tool's structuredContent (2020-12). */
export function outputValidator(tool) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const fn = ajv.compile(tool.outputSchema);
  return (value) => (fn(value) ? null : ajv_errors(fn.errors));
}

/** Tool names, order and annotations. */
export function annotationProblems(tool) {
  const a = tool.annotations ?? {};
  const p = [];
  const where = `tool ${tool.name} annotations ${show(a)}`;
  if (['read', 'changes', 'list', 'find'].includes(tool.name)) {
    if (a.readOnlyHint !== true) p.push(`${where}: ${tool.name} must have readOnlyHint: true`);
  } else if (CONTRACT_TOOLS.includes(tool.name)) {
    if (a.readOnlyHint !== false) p.push(`${where}: readOnlyHint must be false`);
    if (a.destructiveHint !== true) p.push(`${where}: destructiveHint must be true`);
    if (a.openWorldHint !== false) p.push(`${where}: openWorldHint must be false`);
    if (tool.name === 'write' ? a.idempotentHint !== true : a.idempotentHint === true) {
      p.push(`${where}: idempotentHint must be true only for write`);
    }
  }
  return p;
}

/** Checks on the `read` definition both client tests share. */
export function assertReadTool(tools, label) {
  const read = tools.find((t) => t.name === 'read');
  assert.ok(read, `${label}: tools/list has no "read" tool; names: ${show(tools.map((t) => t.name))}`);
  assertNoProblems([...toolDefinitionProblems(read), ...annotationProblems(read)], `${label}: read definition`);
  const props = read.inputSchema.properties ?? {};
  for (const k of ['file_path', 'offset', 'limit']) assert.ok(k in props, `${label}: read inputSchema lacks property ${k}`);
  // file_path, or file_paths for several files: neither is required alone, and the tool says so when both are missing.
  assert.ok('file_paths' in props && props.file_paths.type === 'array', `${label}: read inputSchema lacks file_paths (an array)`);
  const outProps = read.outputSchema.properties ?? {};
  for (const k of READ_FIELDS) assert.ok(k in outProps, `${label}: read outputSchema lacks property ${k}`);
  return read;
}

// ---------------------------------------------------------------------------------------------
// Every server process a test file starts is checked when the file ends
//
// spawn() is wrapped (the CommonJS export, which cross-spawn and so both SDK transports call, and
// the ES named export, re-synced) so that any process that is the server binary, or runs it (tap.mjs,
// `sh -c ... exec BINARY`), is registered with the test that started it. A root after() hook,
// registered after the test file's own hooks so it runs last, waits for every one to end and fails
// the file unless each exited 0 with nothing but non-error log lines on its stderr; a server that a
// client process started out of our sight (the Inspector CLI) is checked from its tap transcript.
// A test that kills or crashes a server on purpose says what exit it expects (`expectExit`), and
// one whose server logs an error on purpose says which (`allowLog`).

// `2026-11-29T03:24:49.239 info message`
const LOG_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3} (trace|debug|info|notice|warn|warning|error|critical) /;
const ERROR_LEVEL = new Set(['error', 'critical']);
const CLEAN_EXIT = Object.freeze({ code: 0, signal: null });
const STDERR_KEEP = 4 * 1024 * 1024;

const servers = [];
const tapDirs = [];
// The tests running now (several when a suite runs its tests concurrently): name -> count.
const runningTests = new Map();
function currentTest() {
  const names = [...runningTests.keys()];
  if (names.length === 0) return '(outside any test: a before/after hook)';
  return names.length === 1 ? show(names[0]) : `one of ${names.length} tests running then: ${names.map(show).join(' | ')}`;
}

/** Where in a test file the spawn came from: `name.test.mjs:LINE`, innermost first. */
function callSite() {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const sites = [...new Set([...stack.matchAll(/([^/\\\s(]+\.test\.mjs):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`))];
  return sites.length ? sites.slice(0, 3).join(' < ') : '(no test file on the stack)';
}

/** The problems with one server's stderr: lines that are not log lines, error lines not allowed. */
export function stderrProblems(text, allowed = []) {
  const problems = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    if (allowed.some((re) => re.test(line))) continue;
    const m = LOG_LINE.exec(line);
    if (!m) problems.push(`not a log line on stderr: ${show(short(line, 400))}`);
    else if (ERROR_LEVEL.has(m[1])) problems.push(`${m[1]} logged: ${show(short(line, 400))}`);
  }
  return problems;
}

/**
 * Ended by SIGTERM or SIGINT without a byte on stdout or stderr: the signal came before the
 * server's first code ran (its handlers log and exit 0 from then on).
 */
function stoppedBeforeStart(exit, stderr, wrote) {
  return !!exit && exit.code === null && (exit.signal === 'SIGTERM' || exit.signal === 'SIGINT') && !wrote && stderr === '';
}

/** One server process started by a test (directly, behind tap.mjs, or through a launcher). */
export class ServerProcess {
  constructor(child, { kind, tapFile, label, test = currentTest(), where = callSite() }) {
    this.child = child;
    this.kind = kind;
    this.tapFile = tapFile;
    this.label = label;
    this.test = test;
    this.where = where;
    this.expected = CLEAN_EXIT;
    this.expectedWhy = 'a server the test did not kill must exit 0';
    this.allowed = [];
    this.required = [];
    this.stderrText = '';
    this.stdoutBytes = 0;
    this.exit = undefined;
    if (child) {
      child.stdout?.on('data', (c) => { this.stdoutBytes += c.length; });
      child.stderr?.on('data', (c) => {
        if (this.stderrText.length < STDERR_KEEP) this.stderrText += c.toString('utf8');
      });
      this.closed = new Promise((resolve) => child.on('close', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }));
      child.on('error', (e) => { this.spawnError = e; });
    }
  }

  get name() {
    return `server ${show(this.label)} (pid ${this.child?.pid ?? '?'}, started in test ${this.test} at ${this.where})`;
  }

  /**
   * The exit this server must end with instead of 0: {code, signal}, or a function of the exit
   * returning true when it is right. `why` says why (shown on failure).
   */
  expectExit(expected, why) {
    this.expected = expected;
    this.expectedWhy = why;
    return this;
  }

  /** Stderr lines matching `re` are allowed (an error the test may provoke). */
  allowLog(re) {
    this.allowed.push(re);
    return this;
  }

  /** The test provokes an error on purpose: a stderr line must match `re` (and is allowed). */
  expectLog(re) {
    this.allowed.push(re);
    this.required.push(re);
    return this;
  }

  /** The server's own exit and stderr: from the tap transcript when it ran behind tap.mjs. */
  outcome() {
    if (this.kind !== 'tap') return { exit: this.exit, stderr: this.stderrText, wrote: this.stdoutBytes > 0 };
    let t;
    try {
      t = readTapFile(this.tapFile);
    } catch (e) {
      return { exit: undefined, stderr: '', missing: `no tap transcript ${this.tapFile} (${e.message}); the tap ended ${show(this.exit)}` };
    }
    return { exit: t.exit && { code: t.exit.code, signal: t.exit.signal }, stderr: t.stderr,
      wrote: t.entries.some((e) => e.dir === 's2c'),
      missing: t.exit ? undefined : `the tap transcript records no exit: the tap itself ended ${show(this.exit)}, so the server's end is unknown` };
  }

  problems() {
    if (this.spawnError) return [`could not start: ${this.spawnError.message}`];
    const { exit, stderr, missing, wrote } = this.outcome();
    const p = [];
    if (missing) p.push(missing);
    else if (stoppedBeforeStart(exit, stderr, wrote)) {
      // A client that stops a server it has just spawned (client 2.4.0 with a process it does not
      // need) can signal it while the dynamic loader still runs, before any of its code: it dies
      // of the signal having done nothing. From its first initialiser on it exits 0 instead.
    } else if (typeof this.expected === 'function' ? !this.expected(exit) : !isDeepStrictEqual(exit, this.expected)) {
      p.push(`exited ${show(exit)}, expected ${typeof this.expected === 'function' ? `(${this.expectedWhy})` : `${show(this.expected)} (${this.expectedWhy})`}`);
    }
    p.push(...stderrProblems(stderr, this.allowed));
    for (const re of this.required) {
      if (!stderr.split('\n').some((l) => re.test(l))) p.push(`no stderr line matches ${re}, which the test expects`);
    }
    const tail = stderr.trim() ? stderr.slice(-1200).replace(/\n$/, '').replace(/^/gm, '      | ') : '      (empty)';
    return p.length ? [`${this.name}:\n      ${p.slice(0, 10).join('\n      ')}\n    stderr tail:\n${tail}`] : [];
  }
}

const childProcess = createRequire(import.meta.url)('node:child_process');
const realSpawn = childProcess.spawn;

/** 'direct' when `command args` runs the server binary itself, 'tap' behind tap.mjs, else null. */
function serverKind(command, args) {
  if (path.resolve(String(command)) === BINARY) return 'direct';
  if (!Array.isArray(args)) return null;
  if (args[0] === TAP && path.resolve(String(args[2])) === BINARY) return 'tap';
  if (args.some((a) => typeof a === 'string' && path.resolve(a) === BINARY)) return 'direct';
  return null;
}

childProcess.spawn = function spawnWatched(command, args, options) {
  if (!Array.isArray(args)) return realSpawn.apply(this, arguments);
  const kind = serverKind(command, args);
  if (!kind) return realSpawn.call(this, command, args, options);
  // The server's stderr must come to us: an inherited one is piped and passed on.
  const opts = { ...options };
  const stdio = typeof opts.stdio === 'string' ? [opts.stdio, opts.stdio, opts.stdio] : [...(opts.stdio ?? ['pipe', 'pipe', 'pipe'])];
  const passOn = stdio[2] === undefined || stdio[2] === 'inherit' || stdio[2] === process.stderr || stdio[2] === 2;
  if (passOn || stdio[2] === 'ignore' || stdio[2] === null) stdio[2] = 'pipe';
  opts.stdio = stdio;
  const child = realSpawn.call(this, command, args, opts);
  if (passOn) child.stderr?.on('data', (c) => process.stderr.write(c));
  watchServer(child, {
    kind,
    tapFile: kind === 'tap' && child.pid ? path.join(args[1], `tap-${child.pid}.jsonl`) : undefined,
    label: kind === 'tap' ? `tap.mjs ${args.slice(3).join(' ')}` : `${path.basename(String(command))} ${args.join(' ')}`,
  });
  return child;
};
syncBuiltinESMExports();

/**
 * Registers a server process the wrapper cannot recognise (a launcher running a copy of the
 * binary); its exit and stderr are checked when the file ends. Returns its ServerProcess.
 */
export function watchServer(child, { kind = 'direct', tapFile, label = 'server', test, where } = {}) {
  const s = new ServerProcess(child, { kind, tapFile, label: short(label, 200), test, where });
  servers.push(s);
  return s;
}

/** The ServerProcess of a child process, a pid, a RawSession or an SDK transport (its pid). */
export function serverOf(x) {
  const pid = typeof x === 'number' ? x : x?.child?.pid ?? x?.pid;
  const s = servers.find((r) => r.child?.pid === pid);
  assert.ok(s, `no server process with pid ${pid} was started by this file (known: ${servers.map((r) => r.child?.pid).join(', ')})`);
  return s;
}

/** Every server process this file has started so far. */
export const startedServers = () => [...servers];

beforeEach((t) => { runningTests.set(t.name, (runningTests.get(t.name) ?? 0) + 1); });
afterEach((t) => {
  const n = runningTests.get(t.name) - 1;
  if (n > 0) runningTests.set(t.name, n);
  else runningTests.delete(t.name);
});

async function checkServers() {
  const deadline = Date.now() + 15000;
  const problems = [];
  const waitAll = Promise.all(servers.map((s) => s.closed));
  let timer;
  await Promise.race([waitAll, new Promise((r) => { timer = setTimeout(r, Math.max(0, deadline - Date.now())); })]);
  clearTimeout(timer);
  let indirect = 0;
  const knownTaps = new Set(servers.filter((s) => s.tapFile).map((s) => s.tapFile));
  for (const s of servers) {
    if (!s.exit && !s.spawnError) {
      s.child.kill('SIGKILL');
      problems.push(`${s.name}: still running when the file ended (killed now)`);
      continue;
    }
    problems.push(...s.problems());
  }
  // Servers a client process started (the Inspector CLI): only their tap transcripts tell.
  for (const { dir, test } of tapDirs) {
    let files = [];
    try { files = fs.readdirSync(dir).filter((n) => /^tap-\d+\.jsonl$/.test(n)); } catch { continue; }
    for (const f of files) {
      const file = path.join(dir, f);
      if (knownTaps.has(file)) continue;
      indirect++;
      const s = new ServerProcess(null, { kind: 'tap', tapFile: file, label: `started by a client process, transcript ${file}`, test, where: 'a client process' });
      s.exit = { code: null, signal: null };
      problems.push(...s.problems());
    }
  }
  if (problems.length) {
    assert.fail(`${problems.length} server process(es) of this file did not end as expected (of ${servers.length} started by the tests and ${indirect} by client processes):\n  - ${problems.slice(0, 12).join('\n  - ')}`
      + (problems.length > 12 ? `\n  ... and ${problems.length - 12} more` : ''));
  }
}
// Queued so that it is registered after the test file's own root hooks (which close shared
// sessions) and runs last.
queueMicrotask(() => after(checkServers));

// ---------------------------------------------------------------------------------------------
// Watching a server's work from outside (Linux /proc): what a cancellation really stopped

/** The pids of `pid`'s children ([] once it is gone). */
export function childPids(pid) {
  const out = [];
  let tasks = [];
  try { tasks = fs.readdirSync(`/proc/${pid}/task`); } catch { return out; }
  for (const task of tasks) {
    try {
      const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    } catch { /* the thread ended */ }
  }
  return out;
}

/** Every descendant of `pid`: [{pid, cmdline}] (cmdline's arguments joined with spaces). */
export function descendants(pid) {
  const out = [];
  for (const c of childPids(pid)) {
    let cmdline = '';
    try { cmdline = fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' '); } catch { continue; }
    out.push({ pid: c, cmdline }, ...descendants(c));
  }
  return out;
}

/** True while `pid` exists and is not a zombie. */
export function processRuns(pid) {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** CPU time `pid` has spent (utime + stime) in clock ticks (1/100 s). */
export function cpuTicks(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Polls `probe` every `every` ms until it returns a truthy value, which it returns; fails after
 * `timeout` ms saying `what` (a string, or a function called then).
 */
export async function pollUntil(probe, { timeout = 10000, every = 20, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() >= deadline) assert.fail(`timed out after ${timeout} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await sleep(every);
  }
}

/** The server process behind a tap.mjs process (its only child), once it runs. */
export const serverBehindTap = (tapPid) =>
  pollUntil(() => childPids(tapPid)[0], { what: `the server process under tap pid ${tapPid}` });

/**
 * Waits until `pid` is busy: it has spent `ticks` of CPU since `since` (a cpuTicks reading).
 * Fails after `timeout` ms saying how much it spent.
 */
export async function waitForCpu(pid, since, ticks, { timeout = 20000, what = 'the work' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const spent = cpuTicks(pid) - since;
    if (spent >= ticks) return spent;
    if (Date.now() >= deadline) assert.fail(`${what}: pid ${pid} spent only ${spent / 100} s of CPU in ${timeout} ms, expected ${ticks / 100} s`);
    await sleep(20);
  }
}

/**
 * Waits until `pid` goes quiet: some `quiet` ms in which it spent at most `maxTicks` of CPU.
 * Fails after `timeout` ms with the CPU it spent meanwhile: its work did not stop.
 */
export async function waitForIdle(pid, { timeout = 5000, quiet = 400, maxTicks = 5, what = 'the server' } = {}) {
  const start = Date.now();
  const first = cpuTicks(pid);
  const samples = [{ t: start, ticks: first }];
  for (;;) {
    await sleep(50);
    const now = { t: Date.now(), ticks: cpuTicks(pid) };
    samples.push(now);
    const old = samples.filter((x) => now.t - x.t >= quiet).pop();
    if (old && now.ticks - old.ticks <= maxTicks) return now.ticks - first;
    if (now.t - start >= timeout) {
      assert.fail(`${what} (pid ${pid}) did not go quiet within ${timeout} ms: it spent ${(now.ticks - first) / 100} s of CPU meanwhile, `
        + `${(now.ticks - (old ?? samples[0]).ticks) / 100} s in the last ${now.t - (old ?? samples[0]).t} ms: its work goes on`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Talking to the binary directly

/**
 * The binary spawned directly; lines written and read are fed to a ConnectionValidator.
 * `next(pred)` returns the first not-yet-consumed server message matching pred.
 */
export class RawSession {
  constructor(args = [], { label = 'raw', cwd } = {}) {
    requireBinary();
    this.validator = new ConnectionValidator(label);
    this.messages = [];
    this.waiters = [];
    this.started = Date.now();
    this.child = spawn(BINARY, args, { stdio: ['pipe', 'pipe', 'pipe'], cwd });
    // Checked when the file ends (exit 0, no error logged) unless the test says otherwise.
    this.server = serverOf(this.child);
    this.server.label = label;
    this.stderr = drain(this.child.stderr);
    this.child.stdin.on('error', () => {});
    let pending = Buffer.alloc(0);
    this.child.stdout.on('data', (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let nl;
      while ((nl = pending.indexOf(0x0a)) !== -1) {
        const line = pending.subarray(0, nl);
        pending = pending.subarray(nl + 1);
        const msg = this.validator.serverLine(line);
        this.messages.push({ msg, t: Date.now() - this.started, consumed: false, raw: line.toString('utf8') });
        this.wake();
      }
    });
    this.child.stdout.on('end', () => {
      if (pending.length) this.validator.serverLine(pending, { unterminated: true });
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.exit = { code, signal };
        this.wake();
        resolve(this.exit);
      });
    });
  }

  wake() {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** Writes one line; objects are JSON-encoded. */
  send(msg) {
    const line = typeof msg === 'string' ? msg : JSON.stringify(msg);
    this.validator.clientLine(line);
    this.child.stdin.write(line + '\n');
  }

  async next(pred = () => true, { timeout = 5000, what = 'a message' } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const hit = this.messages.find((m) => !m.consumed && m.msg !== undefined && pred(m.msg));
      if (hit) {
        hit.consumed = true;
        return hit.msg;
      }
      if (this.exit) {
        assert.fail(`server exited (${show(this.exit)}) while waiting for ${what}; stderr tail:\n${this.stderr.text.slice(-2000)}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = this.messages.map((m) => short(m.raw, 300)).slice(-5).join('\n    ');
        assert.fail(`timed out after ${timeout} ms waiting for ${what}; last server lines:\n    ${seen || '(none)'}\nstderr tail:\n${this.stderr.text.slice(-2000)}`);
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  /** The response (result or error) with exactly this id (same JSON type). */
  response(id, opts = {}) {
    return this.next((m) => isPlainObject(m) && 'id' in m && !('method' in m) && idKey(m.id) === idKey(id),
      { what: `the response to id ${show(id)}`, ...opts });
  }

  async request(id, method, params, opts) {
    const msg = { jsonrpc: '2.0', id, method };
    if (params !== undefined) msg.params = params;
    this.send(msg);
    return this.response(id, opts);
  }

  /** Legacy handshake; returns the initialize result. */
  async initialize(protocolVersion = '2025-11-25', capabilities = {}, id = 0) {
    const r = await this.request(id, 'initialize', {
      protocolVersion, capabilities, clientInfo: { name: 'mcp-edit-e2e-raw', version: '0.0.0' },
    });
    assert.ok(r.result, `initialize failed: ${show(r)}`);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r.result;
  }

  unconsumed() {
    return this.messages.filter((m) => !m.consumed).map((m) => m.msg);
  }

  async close(timeout = 5000) {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeout);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** SIGKILL, which the file's final check then expects as this server's end. */
  kill() {
    this.server.expectExit({ code: null, signal: 'SIGKILL' }, 'the test killed it with SIGKILL (RawSession.kill)');
    if (!this.exit) this.child.kill('SIGKILL');
  }

  /** See ServerProcess.expectExit: the exit the test causes on purpose. */
  expectExit(expected, why) {
    this.server.expectExit(expected, why);
    return this;
  }

  /** See ServerProcess.allowLog: an error the test provokes on purpose. */
  allowLog(re) {
    this.server.allowLog(re);
    return this;
  }

  /** See ServerProcess.expectLog: an error the test provokes on purpose and must see logged. */
  expectLog(re) {
    this.server.expectLog(re);
    return this;
  }
}

/** The `_meta` envelope of a modern (2026-07-28) request. */
export function modernMeta(capabilities = {}, version = MODERN_VERSION) {
  return {
    [PV_KEY]: version,
    [CLIENT_INFO_KEY]: { name: 'mcp-edit-e2e-raw', version: '0.0.0' },
    [CAPS_KEY]: capabilities,
  };
}

/** The file must hold exactly `expected` (string or Buffer), or be absent when expected is null. */
export function assertFile(file, expected, what) {
  if (expected === null) {
    assert.ok(!fs.existsSync(file), `${what}: ${file} must not exist, but holds ${show(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')}`);
    return;
  }
  assert.ok(fs.existsSync(file), `${what}: ${file} must exist (expected ${show(String(expected))})`);
  const got = fs.readFileSync(file);
  const exp = Buffer.isBuffer(expected) ? expected : Buffer.from(expected);
  if (!got.equals(exp)) {
    assert.fail(`${what}: ${path.basename(file)} on disk differs byte for byte\n  expected ${show(exp.toString('utf8'))}\n  got      ${show(got.toString('utf8'))}`);
  }
}

/** The text blocks of a CallToolResult, joined with newlines. */
export const textOf = (r) => (r?.content ?? []).filter((c) => c?.type === 'text').map((c) => c.text).join('\n');

/**
 * Runs `body` with a RawSession on `args`, closes it, and checks every server line against the
 * schema. With `cleanExit`, the server must also exit 0 once stdin reaches EOF.
 */
export async function withRawSession(label, args, body, { cwd, cleanExit = false } = {}) {
  const s = new RawSession(args, { label, cwd });
  let exit;
  try {
    await body(s);
  } finally {
    exit = await s.close();
  }
  assertNoProblems(s.validator.problems, label);
  if (cleanExit) {
    assert.deepEqual(exit, { code: 0, signal: null },
      `${label}: the server must exit 0 once stdin reaches EOF; got ${show(exit)}; stderr tail:\n${s.stderr.text.slice(-1500)}`);
  }
  return s;
}

/** A fresh temp directory holding `files` (name -> content); returns {dir, [name]: path}. */
export function newDir(files = {}) {
  const dir = makeTempDir();
  const out = { dir };
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content);
    out[name] = p;
  }
  return out;
}

/** A refused change: isError, says nothing was written, and matches every pattern. */
export function assertRefusedChange(r, what, ...patterns) {
  assert.equal(r?.isError, true, `${what}: must be isError: true, got ${show(r).slice(0, 600)}`);
  const t = textOf(r);
  assert.match(t, /nothing (was )?written/i, `${what}: the text must say nothing was written: ${show(t)}`);
  for (const p of patterns) assert.match(t, p, `${what}: the text must match ${p}: ${show(t)}`);
}

/** A written change: not an error, structuredContent with this `approval`. */
export function assertWrittenChange(r, what, approval) {
  assert.notEqual(r?.isError, true, `${what}: must succeed, got ${show(r).slice(0, 600)}`);
  const sc = r?.structuredContent;
  assert.ok(sc && typeof sc === 'object', `${what}: structuredContent missing: ${show(r).slice(0, 400)}`);
  assert.equal(sc.approval, approval, `${what}: structuredContent.approval expected ${show(approval)}, got ${show(sc.approval)}`);
}

/** A root with every fixture and boundary case written, and a directory for tap transcripts. */
export function fixtureRoot() {
  const root = makeTempDir();
  return { root, fixtures: writeFixtures(root), boundary: makeBoundaryCases(root), tapDir: makeTempDir('mcp-edit-e2e-tap-') };
}

/** The inspector CLI's entry point (from the locked @modelcontextprotocol/inspector-cli). */
export function inspectorBin() {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'cli.js');
}
