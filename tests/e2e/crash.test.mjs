// Crash safety (contract, Writing): the server killed with SIGKILL at random moments during a
// stream of writes leaves every file either old or new, never partial or empty.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { BINARY, makeTempDir, requireBinary, serverOf } from './helpers.mjs';

const FILES = 4;
const ROUNDS = 12;
// Big enough that a write takes a while, so kills land inside writes.
const filler = 'x'.repeat(120) + '\n';
const body = (version) => `version ${version}\n` + filler.repeat(4000) + `end ${version}\n`;

function versionOf(text) {
  const m = /^version (\d+)\n/.exec(text);
  if (!m) return null;
  return text === body(Number(m[1])) ? Number(m[1]) : null;
}

test('SIGKILL during a stream of writes leaves each file old or new, never partial', async () => {
  requireBinary();
  const root = makeTempDir();
  for (let f = 0; f < FILES; f++) fs.writeFileSync(path.join(root, `f${f}.txt`), body(0));
  const current = Array(FILES).fill(0);
  for (let round = 0; round < ROUNDS; round++) {
    const child = spawn(BINARY, ['--root', root, '--log-level', 'off'], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdin.on('error', () => {});
    serverOf(child).expectExit({ code: null, signal: 'SIGKILL' }, 'the test kills it with SIGKILL mid-write');
    // The kill lands a random moment after the first write was answered, so writes are in flight
    // however fast or slow the build (sanitizers) is.
    const firstWrite = new Promise((resolve) => {
      let seen = '';
      child.stdout.on('data', (d) => {
        seen += d;
        if (/"id":[1-9]/.test(seen)) resolve();
      });
      child.on('close', resolve);
    });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {
      protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'crash', version: '1' } } }) + '\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    // Each file gets a chain of edits version k -> k+1 (both lines), all in flight.
    let id = 1;
    for (let step = 0; step < 30; step++) {
      for (let f = 0; f < FILES; f++) {
        const from = current[f] + step;
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'multiedit',
          arguments: { file_path: `f${f}.txt`, edits: [
            { old_string: `version ${from}\n`, new_string: `version ${from + 1}\n` },
            { old_string: `end ${from}\n`, new_string: `end ${from + 1}\n` }] } } }) + '\n');
      }
    }
    await firstWrite;
    const delay = Math.floor(Math.random() * 40);
    await new Promise((r) => setTimeout(r, delay));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    for (let f = 0; f < FILES; f++) {
      const text = fs.readFileSync(path.join(root, `f${f}.txt`), 'latin1');
      const v = versionOf(text);
      assert.notEqual(v, null, `round ${round} (killed ${delay} ms after the first write): f${f}.txt is neither an old nor a new version ` +
        `(${text.length} bytes, starts ${JSON.stringify(text.slice(0, 20))}, ends ${JSON.stringify(text.slice(-12))})`);
      assert.ok(v >= current[f], `round ${round}: f${f}.txt went back from version ${current[f]} to ${v}`);
      current[f] = v;
    }
  }
  assert.ok(current.some((v) => v > 0), 'no write completed in any round: the test did not exercise writes');
});
