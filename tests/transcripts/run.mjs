// Transcript tests: each tests/transcripts/*.jsonl runs through the real binary. Lines:
//   # comment                      ignored
//   ! args --flag value ...         extra server arguments (whitespace-split; $FAKE_LSP is the test
//                                   language server, tests/fake_lsp, from MCP_EDIT_FAKE_LSP)
//   ! argv ["--flag", "a value"]    extra server arguments as a JSON array (values with spaces)
//   ! file NAME JSON-STRING         a fixture file in the temporary root (JSON string: escapes allowed);
//                                   after the first `>` line, the file is (re)written at that point
//                                   of the input, as another program changing it while the server runs
//   ! wait REGEX                    send nothing more until an output line matches REGEX ($ROOT
//                                   replaced; at most 10 s, then the rest is sent and it is a failure)
//   ! dir NAME                      a fixture directory
//   ! fifo NAME                     a fixture FIFO
//   > RAW LINE                      sent to the server ($ROOT replaced; need not be valid JSON)
//   >b64 BASE64                     sent as the decoded bytes (for invalid UTF-8 and the like)
//   >repeat N TEXT                  sent as TEXT repeated N times on one line (for size limits)
//   < JSON                          an expected server line
//   <~ JSON                         an expected server line, matched anywhere in the output
//   ! exit CODE                     the expected exit status (default 0)
//   ! stderr REGEX                  the server's standard error must match REGEX ($ROOT replaced;
//                                   `.` matches newlines too); several lines, several matches.
//                                   The stderr lines inside the match count as expected (below)
//   ! log LEVEL REGEX               the server logs at least one line at LEVEL (warning, error or
//                                   critical; `warn` is read as warning) whose message matches
//                                   REGEX ($ROOT replaced); such lines are expected (below)
//   ! posix-only REASON             skipped when the binary is a Windows one (see below)
// All input is written (pausing only at `! wait`), stdin is closed, and the output and the exit
// status (0 unless `! exit` says otherwise; a signal is always a failure) are compared once the
// server exits:
// every `<` line must match the next unmatched output line in order, each `<~` line any line;
// no output line may be left over. The server runs with --log-level info (unless the transcript
// gives --log-level itself) and its standard error is checked line by line: a log line
// (`2026-11-29T03:24:49.239 info message`) at trace, debug or info is fine; one at warning, error or
// critical must be declared by a `! log` line; any other line (a sanitizer's `ERROR:
// AddressSanitizer`, `runtime error:`, a crash message, a stray print) must lie inside a `! stderr`
// match; everything else fails the transcript, so a server that logs an error or trips a sanitizer
// in any transcript is caught. Expected values match when equal; objects match when every
// expected key matches (extra keys allowed), arrays when they have the same length and match
// element-wise. The string "$ANY" matches anything, "$ROOT" is replaced by the temporary root, and
// a string starting with "$RE:" is a regular expression the actual string must match.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [binaryArg, dir] = process.argv.slice(2);
const binary = binaryArg && path.resolve(binaryArg);
if (!binary || !dir) {
  console.error("usage: run.mjs MCP_EDIT_BINARY TRANSCRIPT_DIR");
  process.exit(2);
}
// A Windows binary (mcp-edit.exe) runs under Wine: it sees this machine's files on drive Z:, so
// $ROOT is written as Z:/tmp/... to it and expected in its answers.
const windows = binary.endsWith(".exe");
const launcher = windows ? [process.env.WINE || "wine", binary] : [binary];
const rootAsServerSees = (root) => (windows ? `Z:${root}` : root);

function substitute(value, root) {
  if (typeof value === "string") return value.replaceAll("$ROOT", root);
  if (Array.isArray(value)) return value.map((v) => substitute(v, root));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, root)]));
  }
  return value;
}

const brief = (v) => {
  const text = JSON.stringify(v);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
};

// Returns null when `actual` matches `expected`, else a description of the first difference.
function mismatch(expected, actual, where = "") {
  if (expected === "$ANY") return null;
  if (typeof expected === "string" && expected.startsWith("$RE:")) {
    if (typeof actual === "string" && new RegExp(expected.slice(4), "s").test(actual)) return null;
    return `${where || "/"}: expected a string matching /${expected.slice(4)}/, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${where || "/"}: expected an array, got ${brief(actual)}`;
    if (actual.length !== expected.length)
      return `${where || "/"}: expected ${expected.length} elements, got ${actual.length}: ${brief(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const m = mismatch(expected[i], actual[i], `${where}/${i}`);
      if (m) return m;
    }
    return null;
  }
  if (expected && typeof expected === "object") {
    if (!actual || typeof actual !== "object" || Array.isArray(actual))
      return `${where || "/"}: expected an object, got ${brief(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      if (v === "$ABSENT") {
        if (k in actual) return `${where}/${k}: expected no such key, got ${JSON.stringify(actual[k])}`;
        continue;
      }
      if (!(k in actual)) return `${where}/${k}: missing (expected ${JSON.stringify(v)})`;
      const m = mismatch(v, actual[k], `${where}/${k}`);
      if (m) return m;
    }
    return null;
  }
  if (expected !== actual) return `${where || "/"}: expected ${brief(expected)}, got ${brief(actual)}`;
  return null;
}

function parseTranscript(file) {
  // steps: what is done once the server runs, in order: {send: Buffer} | {wait: RegExp source,
  // at} | {file: {name, content}}
  const t = { args: [], files: [], steps: [], expected: [], stderr: [], logs: [], exit: 0 };
  const send = (bytes) => t.steps.push({ send: bytes });
  const lines = fs.readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    const at = `${path.basename(file)}:${i + 1}`;
    if (line === "" || line.startsWith("#")) return;
    if (line.startsWith("> ")) send(Buffer.from(line.slice(2), "utf8"));
    else if (line.startsWith(">b64 ")) send(Buffer.from(line.slice(5), "base64"));
    else if (line.startsWith(">repeat ")) {
      const m = /^>repeat (\d+) (.*)$/.exec(line);
      send(Buffer.from(m[2].repeat(Number(m[1])), "utf8"));
    }
    else if (line.startsWith("! wait ")) t.steps.push({ wait: line.slice(7).trim(), at });
    else if (line.startsWith("<~ ")) t.expected.push({ anywhere: true, value: JSON.parse(line.slice(3)), at });
    else if (line.startsWith("< ")) t.expected.push({ anywhere: false, value: JSON.parse(line.slice(2)), at });
    else if (line.startsWith("! args ")) t.args.push(...line.slice(7).trim().split(/\s+/));
    else if (line.startsWith("! argv ")) t.args.push(...JSON.parse(line.slice(7)));
    else if (line.startsWith("! exit ")) t.exit = Number(line.slice(7));
    else if (line.startsWith("! stderr ")) t.stderr.push({ re: line.slice(9).trim(), at });
    else if (line.startsWith("! log ")) {
      const m = /^! log (\w+) (.*)$/.exec(line);
      const level = m && (m[1] === "warn" ? "warning" : m[1]);
      if (!m || !["warning", "error", "critical"].includes(level))
        throw new Error(`${at}: expected "! log warning|error|critical REGEX": ${line}`);
      t.logs.push({ level, re: m[2].trim(), at });
    }
    else if (line.startsWith("! file ")) {
      const rest = line.slice(7);
      const space = rest.indexOf(" ");
      const file = { kind: "file", name: rest.slice(0, space), content: JSON.parse(rest.slice(space + 1)) };
      if (t.steps.length === 0) t.files.push(file);
      else t.steps.push({ file });
    } else if (line.startsWith("! dir ")) t.files.push({ kind: "dir", name: line.slice(6).trim() });
    else if (line.startsWith("! fifo ")) t.files.push({ kind: "fifo", name: line.slice(7).trim() });
    else if (line.startsWith("! posix-only ")) t.posixOnly = line.slice(13).trim();
    else throw new Error(`${at}: cannot read this line: ${line}`);
  });
  return t;
}

function runOne(file) {
  const t = parseTranscript(file);
  if (windows && t.posixOnly) return Promise.resolve({ failures: [], stderr: "", skipped: t.posixOnly });
  const localRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcp-edit-transcript-")));
  const root = rootAsServerSees(localRoot);
  const writeFixture = (f) => {
    const p = path.join(localRoot, f.name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, Buffer.from(f.content, "latin1"));
  };
  for (const f of t.files) {
    const p = path.join(localRoot, f.name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    if (f.kind === "file") writeFixture(f);
    else if (f.kind === "dir") fs.mkdirSync(p, { recursive: true });
    else spawnSyncMkfifo(p);
  }
  const fakeLsp = process.env.MCP_EDIT_FAKE_LSP ? rootAsServerSees(process.env.MCP_EDIT_FAKE_LSP) : "(MCP_EDIT_FAKE_LSP is not set)";
  const transcriptArgs = t.args.map((a) => a.replaceAll("$ROOT", root).replaceAll("$FAKE_LSP", fakeLsp));
  const logLevel = transcriptArgs.includes("--log-level") ? [] : ["--log-level", "info"];
  const args = ["--root", root, "--no-fsync", ...logLevel, ...transcriptArgs];
  return new Promise((resolve) => {
    const child = spawn(launcher[0], [...launcher.slice(1), ...args], { cwd: localRoot, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const waitFailures = [];
    let waiting = null; // {re, resolve} while a `! wait` step waits for a matching output line
    const seenLine = () => waiting && stdout.split("\n").slice(0, -1).some((l) => waiting.re.test(l));
    child.stdout.on("data", (d) => {
      stdout += d;
      if (seenLine()) waiting.resolve();
    });
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), windows ? 60000 : 20000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const failures = [...waitFailures];
      if (signal) failures.push(`server killed by ${signal} (hang?)`);
      else if (code !== t.exit) failures.push(`exit status ${code}, expected ${t.exit}${t.exit === 0 ? ' (the server exits 0 when its input ends)' : ''}`);
      const outLines = stdout.split("\n").filter((l) => l !== "");
      const actual = [];
      for (const l of outLines) {
        try {
          actual.push({ raw: l, value: JSON.parse(l), used: false });
        } catch {
          failures.push(`stdout line is not JSON: ${l}`);
        }
      }
      let cursor = 0;
      for (const e of t.expected) {
        const want = substitute(e.value, root);
        if (e.anywhere) {
          const hit = actual.find((a) => !a.used && mismatch(want, a.value) === null);
          if (hit) hit.used = true;
          else failures.push(`${e.at}: no output line matches ${JSON.stringify(want)}`);
          continue;
        }
        while (cursor < actual.length && actual[cursor].used) cursor++;
        if (cursor >= actual.length) {
          failures.push(`${e.at}: expected ${JSON.stringify(want)}, but the output ended`);
          continue;
        }
        const m = mismatch(want, actual[cursor].value);
        if (m) failures.push(`${e.at}: ${m}\n    actual line: ${brief(actual[cursor].value)}`);
        actual[cursor].used = true;
        cursor++;
      }
      for (const a of actual) if (!a.used) failures.push(`unexpected output line: ${brief(a.value)}`);
      const declared = []; // [start, end) spans of stderr that a `! stderr` line matched
      for (const e of t.stderr) {
        const re = e.re.replaceAll("$ROOT", root);
        const m = new RegExp(re, "s").exec(stderr);
        if (m) declared.push([m.index, m.index + m[0].length]);
        else failures.push(`${e.at}: standard error does not match /${re}/; it was ${JSON.stringify(stderr)}`);
      }
      failures.push(...unexpectedStderr(stderr, declared, t.logs, root));
      fs.rmSync(localRoot, { recursive: true, force: true });
      resolve({ failures, stderr });
    });
    child.stdin.on("error", () => {});
    (async () => {
      for (const step of t.steps) {
        if (step.send) {
          const bytes = Buffer.from(step.send.toString("latin1").replaceAll("$ROOT", root), "latin1");
          child.stdin.write(Buffer.concat([bytes, Buffer.from("\n")]));
        } else if (step.file) {
          writeFixture(step.file);
        } else {
          const matched = await new Promise((resolve) => {
            const timeout = setTimeout(() => resolve(false), 10000);
            waiting = { re: new RegExp(step.wait.replaceAll("$ROOT", root)), resolve: () => (clearTimeout(timeout), resolve(true)) };
            if (seenLine()) waiting.resolve();
          });
          waiting = null;
          if (!matched) waitFailures.push(`${step.at}: no output line matched /${step.wait}/ within 10 s`);
        }
      }
      child.stdin.end();
    })();
  });
}

// The server's stderr lines that no declaration covers (see the top of this file), and the `! log`
// declarations no line matched.
const logLine = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3} (trace|debug|info|warning|error|critical) (.*)$/;
// Wine's own complaints (not the server's) when a Windows binary runs under it.
const wineLine = /^(wine: |[0-9a-f]{4}:(fixme|err|warn|trace):)/;
function unexpectedStderr(stderr, declared, logs, root) {
  const failures = [];
  const used = logs.map(() => false);
  let offset = 0;
  for (const raw of stderr.split("\n")) {
    const start = offset;
    offset += raw.length + 1;
    const line = raw.replace(/\r$/, "");
    if (line === "") continue;
    if (declared.some(([from, to]) => start >= from && start + raw.length <= to)) continue;
    const m = logLine.exec(line);
    if (m && ["trace", "debug", "info"].includes(m[1])) continue;
    if (m) {
      const i = logs.findIndex((l) => l.level === m[1] && new RegExp(l.re.replaceAll("$ROOT", root), "s").test(m[2]));
      if (i >= 0) used[i] = true;
      else failures.push(`the server logged a line at ${m[1]} that no "! log ${m[1]} REGEX" declares: ${line}`);
    } else if (!(windows && wineLine.test(line))) {
      failures.push(`the server's standard error has a line that is not a log line (sanitizer? crash?): ${line}`);
    }
  }
  logs.forEach((l, i) => {
    if (!used[i]) failures.push(`${l.at}: the server logged no ${l.level} line matching /${l.re}/`);
  });
  return failures;
}

function spawnSyncMkfifo(p) {
  const r = spawnSync("mkfifo", [p]);
  if (r.status !== 0) throw new Error(`mkfifo ${p} failed`);
}

const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl"))
  .sort();
let passed = 0;
let failed = 0;
let skipped = 0;
for (const f of files) {
  const { failures, stderr, skipped: why } = await runOne(path.join(dir, f));
  if (why) {
    skipped++;
    console.log(`skip ${f} (${why})`);
  } else if (failures.length === 0) {
    passed++;
    console.log(`ok   ${f}`);
  } else {
    failed++;
    console.log(`FAIL ${f}`);
    for (const x of failures) console.log(`  - ${x}`);
    if (stderr) console.log(`  stderr:\n${stderr.replace(/^/gm, "    ")}`);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed === 0 && files.length > 0 ? 0 : 1);
