#!/usr/bin/env node
// A transparent stdio tap: `node tap.mjs LOG_DIR COMMAND [ARGS...]`.
// Spawns COMMAND, copies our stdin to its stdin and its stdout to our stdout byte for byte, and
// records every line in each direction to LOG_DIR/tap-<pid>.jsonl as
// {"dir":"c2s"|"s2c","t":<ms since start>,"b64":"<raw bytes of the line, without the \n>"}.
// The client libraries spawn this script instead of the server, so the tests can validate every
// byte the server wrote, including the throw-away `server/discover` probe process that
// @modelcontextprotocol/client spawns on its own. The child's stderr is passed through and also
// recorded, line by line, as {"dir":"err",...}, and its end as {"dir":"exit","code":..,"signal":..},
// so helpers.mjs can check the exit and the log of every server, even one a client process
// (the Inspector CLI) started out of the test's sight.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [logDir, command, ...args] = process.argv.slice(2);
if (!logDir || !command) {
  process.stderr.write('usage: node tap.mjs LOG_DIR COMMAND [ARGS...]\n');
  process.exit(2);
}
const logFile = path.join(logDir, `tap-${process.pid}.jsonl`);
const started = Date.now();
fs.writeFileSync(logFile, '');

function lineSplitter(dir) {
  let pending = Buffer.alloc(0);
  return {
    push(chunk) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let nl;
      while ((nl = pending.indexOf(0x0a)) !== -1) {
        record(dir, pending.subarray(0, nl));
        pending = pending.subarray(nl + 1);
      }
    },
    flush() {
      if (pending.length) record(dir, pending, true);
      pending = Buffer.alloc(0);
    },
  };
}

function record(dir, bytes, unterminated = false) {
  const entry = { dir, t: Date.now() - started, b64: bytes.toString('base64') };
  if (unterminated) entry.unterminated = true;
  fs.appendFileSync(logFile, JSON.stringify(entry) + '\n');
}

const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
const c2s = lineSplitter('c2s');
const s2c = lineSplitter('s2c');
const err = lineSplitter('err');
process.stderr.on('error', () => {});
child.stderr.on('data', (chunk) => {
  err.push(chunk);
  process.stderr.write(chunk);
});
child.stderr.on('end', () => err.flush());

child.on('error', (err) => {
  process.stderr.write(`tap: cannot start ${command}: ${err.message}\n`);
  process.exit(127);
});
child.stdin.on('error', () => {});
process.stdout.on('error', () => {});

process.stdin.on('data', (chunk) => {
  c2s.push(chunk);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => {
  c2s.flush();
  child.stdin.end();
});
child.stdout.on('data', (chunk) => {
  s2c.push(chunk);
  process.stdout.write(chunk);
});
child.stdout.on('end', () => s2c.flush());

for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(sig, () => {
    try { child.kill(sig); } catch { /* already gone */ }
  });
}
child.on('close', (code, signal) => {
  s2c.flush();
  err.flush();
  fs.appendFileSync(logFile, JSON.stringify({ dir: 'exit', t: Date.now() - started, code, signal }) + '\n');
  // Let stdout drain before exiting.
  process.stdout.write('', () => process.exit(code ?? 128));
});
