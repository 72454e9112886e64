// A client that sends many reads with big replies and does not read stdout: the server's memory
// stays bounded (the output it holds and builds is bounded in bytes), and every reply arrives
// once the client reads. Also: one reply over the size bound becomes an isError result naming offset/limit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BINARY, makeTempDir, pollUntil, requireBinary, show, sleep } from './helpers.mjs';

requireBinary();

const rssMiB = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;  // exited
  }
};

// Starts the server; stdout is left unread (paused) until `readAll` is called.
function startServer(root) {
  const child = spawn(BINARY, ['--root', root, '--no-fsync'], { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdout.pause();
  // Each message kept in brief (id, error, isError, total_lines, the start of content[0]): 300
  // replies of 6 MB would hold 2 GB here.
  const lines = [];
  let pending = [];
  const keep = (m) => ({
    id: m.id, error: m.error,
    result: m.result && {
      isError: m.result.isError,
      total_lines: m.result.structuredContent?.total_lines,
      text: m.result.content?.[0]?.text?.slice(0, 2000),
    },
  });
  const readAll = () => {
    child.stdout.on('data', (chunk) => {
      let start = 0;
      let nl;
      while ((nl = chunk.indexOf(10, start)) >= 0) {
        pending.push(chunk.subarray(start, nl));
        lines.push(keep(JSON.parse(Buffer.concat(pending).toString('utf8'))));
        pending = [];
        start = nl + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    });
    child.stdout.resume();
  };
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({ jsonrpc: '2.0', id: 0, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow-reader', version: '0' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { child, lines, readAll, exited, send };
}

const READS = 300;
const RSS_BOUND_MIB = 400;

test(`${READS} reads of ~6 MB replies, stdout unread: RSS stays under ${RSS_BOUND_MIB} MiB, then every reply arrives`,
  { skip: process.platform !== 'linux' && 'reads /proc/PID/status' }, async (t) => {
    const root = makeTempDir();
    // 500 lines of 1000 control characters: each escapes to six bytes, twice over (content and
    // structuredContent), so one read's reply is about 6 MB (under the 8 MiB bound on one message).
    const line = '\x01'.repeat(1000);
    fs.writeFileSync(path.join(root, 'ctl.txt'), `${Array(500).fill(line).join('\n')}\n`);
    const s = startServer(root);
    for (let id = 1; id <= READS; id++)
      s.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read', arguments: { file_path: 'ctl.txt' } } });

    // Sample until RSS has not grown for 3 s (at most 60 s): the server has stopped working.
    let peak = 0;
    let lastGrowth = Date.now();
    const start = Date.now();
    while (Date.now() - lastGrowth < 3000 && Date.now() - start < 60000) {
      const rss = rssMiB(s.child.pid);
      if (rss > peak + 1) {
        peak = rss;
        lastGrowth = Date.now();
      }
      await sleep(50);
    }
    t.diagnostic(`peak RSS while stdout was unread: ${peak.toFixed(1)} MiB`);
    assert.ok(peak < RSS_BOUND_MIB, `RSS reached ${peak.toFixed(1)} MiB with stdout unread; the bound is ${RSS_BOUND_MIB} MiB`);

    s.readAll();
    const done = () => new Set(s.lines.filter((m) => m.id !== undefined).map((m) => m.id)).size >= READS + 1;
    await pollUntil(done, { timeout: 60000, what: () => `all ${READS + 1} replies once stdout is read; got ${s.lines.length} lines` });
    const replies = s.lines.filter((m) => typeof m.id === 'number' && m.id >= 1);
    assert.equal(replies.length, READS, `expected ${READS} read replies, got ${replies.length}`);
    for (const r of replies) {
      assert.ok(r.result && !r.result.isError, `read ${r.id} failed: ${show(r).slice(0, 300)}`);
      assert.equal(r.result.total_lines, 500, `read ${r.id}: ${show(r.result)}`);
    }
    s.child.stdin.end();
    assert.deepEqual(await s.exited, { code: 0, signal: null });
  });

test('a read whose reply would be over 8 MiB is an isError result naming offset and limit; the server goes on', async () => {
  const root = makeTempDir();
  // 1 MiB of text (the read tool's bound) of control characters: about 12 MB of JSON.
  const line = '\x01'.repeat(1000);
  fs.writeFileSync(path.join(root, 'big.txt'), `${Array(1100).fill(line).join('\n')}\n`);
  const s = startServer(root);
  s.readAll();
  s.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: { file_path: 'big.txt' } } });
  s.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
  await pollUntil(() => s.lines.some((m) => m.id === 2), { timeout: 30000, what: 'the reply to ping 2' });
  await pollUntil(() => s.lines.some((m) => m.id === 1), { timeout: 30000, what: 'the reply to the big read 1' });
  const r = s.lines.find((m) => m.id === 1);
  assert.equal(r.result?.isError, true, `expected an isError result, got ${show(r).slice(0, 300)}`);
  const text = r.result.text;
  assert.match(text, /over the 8\.0 MiB one message may carry/);
  const m = /offset: 1, limit: (\d+)/.exec(text);
  assert.ok(m, `the message names offset and limit: ${text}`);
  // The limit it suggests works.
  s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call',
    params: { name: 'read', arguments: { file_path: 'big.txt', offset: 1, limit: Number(m[1]) } } });
  await pollUntil(() => s.lines.some((x) => x.id === 3), { timeout: 30000, what: 'the reply to read 3 with the suggested limit' });
  const ok = s.lines.find((x) => x.id === 3);
  assert.ok(ok.result && !ok.result.isError, `the suggested limit ${m[1]} must work: ${show(ok).slice(0, 300)}`);
  s.child.stdin.end();
  assert.deepEqual(await s.exited, { code: 0, signal: null });
});
