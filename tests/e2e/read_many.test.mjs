// `read` of several files in one call and of images, through the official SDK client (which
// validates structuredContent against the outputSchema): each file in its place, a missing one
// reported without failing the rest, each recorded as read; images as MCP image content.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  BINARY, drain, makeTempDir, pollUntil, requireBinary, textOf, show,
} from './helpers.mjs';
import { withToolClient } from './tool_client.mjs';

requireBinary();

// The smallest valid PNG (1x1, transparent) and a GIF header: recognised by their bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

describe('read of several files and of images', { concurrency: true }, () => {
  test('file_paths: each file in order, a missing one in its place, each recorded as read (write then works)', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.txt'), 'alpha\r\nbeta\r\n');
    fs.writeFileSync(path.join(dir, 'b.txt'), Buffer.from([0x78, 0xff, 0x0a]));
    const outside = makeTempDir();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'out-link.txt'));
    fs.symlinkSync(path.join(dir, 'b.txt'), path.join(dir, 'in-link.txt'));
    await withToolClient(dir, 'read-many', ['--approval', 'auto'], async (call) => {
      const links = await call('read', { file_paths: ['out-link.txt', 'in-link.txt'] });
      assert.match(textOf(links), /==> out-link\.txt <==\n\[not read\] /);
      assert.doesNotMatch(textOf(links), /outside\n/);
      assert.match(textOf(links), /==> in-link\.txt <==\n     1\tx/);
      assert.equal(links.structuredContent.files[0].reason, 'outside_root');
      const r = await call('read', { file_paths: ['a.txt', 'missing.txt', 'b.txt'] });
      assert.notEqual(r.isError, true, show(r).slice(0, 500));
      const t = textOf(r);
      assert.match(t, /^Read 2 of 3 files \(1 could not be read/);
      assert.match(t, /==> a\.txt <==\n     1\talpha\n     2\tbeta/);
      assert.match(t, /==> missing\.txt <==\n\[not read\] File not found/);
      assert.match(t, /==> b\.txt <==\n     1\tx\uFFFD/);
      assert.ok(t.indexOf('a.txt <==') < t.indexOf('missing.txt <==') && t.indexOf('missing.txt <==') < t.indexOf('b.txt <=='));
      const files = r.structuredContent.files;
      assert.equal(files.length, 3);
      assert.equal(files[0].line_ending, 'crlf');
      assert.equal(files[1].reason, 'not_found');
      assert.equal(files[2].encoding, 'unknown-8bit');
      // Recorded as read: overwriting with write needs that.
      const w = await call('write', { file_path: 'a.txt', content: 'new\n' });
      assert.notEqual(w.isError, true, show(w).slice(0, 400));
      // file_path alone: exactly the single-file result as before.
      const one = await call('read', { file_path: 'b.txt' });
      assert.equal(one.structuredContent.total_lines, 1);
      assert.equal(one.structuredContent.files, undefined);
      const none = await call('read', {});
      assert.equal(none.isError, true);
      assert.match(textOf(none), /file_paths/);
    });
  });

  test('an image comes back as image content (PNG by its bytes, whatever its name); over 5 MiB is refused', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'pixel.dat'), PNG);
    const big = Buffer.alloc((5 << 20) + 1);
    PNG.copy(big);
    fs.writeFileSync(path.join(dir, 'big.png'), big);
    fs.writeFileSync(path.join(dir, 'bin.dat'), Buffer.from([0, 1, 2, 3]));
    await withToolClient(dir, 'read-image', [], async (call) => {
      const r = await call('read', { file_path: 'pixel.dat' });
      assert.notEqual(r.isError, true, show(r).slice(0, 500));
      const image = r.content.find((c) => c.type === 'image');
      assert.ok(image, `an image content block: ${show(r.content).slice(0, 300)}`);
      assert.equal(image.mimeType, 'image/png');
      assert.deepEqual(Buffer.from(image.data, 'base64'), PNG);
      assert.equal(r.structuredContent.mime_type, 'image/png');
      assert.equal(r.structuredContent.size_bytes, PNG.length);

      const tooBig = await call('read', { file_path: 'big.png' });
      assert.equal(tooBig.isError, true);
      assert.match(textOf(tooBig), /over the 5\.0 MiB/);
      const binary = await call('read', { file_path: 'bin.dat' });
      assert.equal(binary.isError, true);
      assert.match(textOf(binary), /binary/);

      const both = await call('read', { file_paths: ['pixel.dat', 'bin.dat'] });
      assert.equal(both.content.filter((c) => c.type === 'image').length, 1);
      assert.match(textOf(both), /==> bin\.dat <==\n\[not read\] Refused/);
    });
  });

  test('an image of 200 MB is refused by its size without being read: the server stays within 150 MB of address space', async () => {
    // Before, the refusal read the file whole, twice (400 MB); under this limit that was std::bad_alloc.
    if (process.platform !== 'linux') return;
    const dir = makeTempDir();
    const file = path.join(dir, 'huge.png');
    fs.writeFileSync(file, PNG.subarray(0, 16));
    fs.truncateSync(file, 200 * 1024 * 1024);  // sparse: no disk used
    const tr = new StdioClientTransport({ command: 'sh', args: ['-c', 'ulimit -v 150000 && exec "$0" --root "$1"', BINARY, dir] });
    drain(tr.stderr);
    const client = new Client({ name: 'mcp-edit-e2e-huge-image', version: '0.0.0' }, { capabilities: {} });
    await client.connect(tr);
    try {
      const r = await client.callTool({ name: 'read', arguments: { file_path: file } }, undefined, { timeout: 10000 });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /^Refused: .*huge\.png is an image \(image\/png\) of 200\.0 MiB, over the 5\.0 MiB that read returns/, show(r));
    } finally {
      await client.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('ping answers while a read of a 200 MB file is in progress (the read runs off the io thread)', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'big.log');
    fs.writeFileSync(file, Buffer.alloc(200 * 1024 * 1024, 'log line\n'));
    const tr = new StdioClientTransport({ command: BINARY, args: ['--root', dir] });
    drain(tr.stderr);
    const client = new Client({ name: 'mcp-edit-e2e-ping-big-read', version: '0.0.0' }, { capabilities: {} });
    await client.connect(tr);
    try {
      const started = performance.now();
      let readDone = 0;
      const read = client.callTool({ name: 'read', arguments: { file_path: file, limit: 5 } }, undefined, { timeout: 60000 })
        .then((r) => { readDone = performance.now() - started; return r; });
      // The read has begun: the server holds the file open (or, on a fast machine, it is done).
      const holdsFile = () => fs.readdirSync(`/proc/${tr.pid}/fd`).some((fd) => {
        try { return fs.readlinkSync(`/proc/${tr.pid}/fd/${fd}`) === file; } catch { return false; }
      });
      await pollUntil(() => holdsFile() || readDone, { every: 1, what: `the server (pid ${tr.pid}) to open ${file}` });
      const pingStarted = performance.now();
      await client.ping();
      const pingMs = performance.now() - pingStarted;
      const r = await read;
      console.log(`# ping took ${pingMs.toFixed(1)} ms; the read of 200 MB took ${readDone.toFixed(0)} ms`);
      assert.notEqual(r.isError, true, show(r).slice(0, 300));
      assert.ok(pingMs < 2000, `ping took ${pingMs} ms during the read`);
      if (readDone > pingStarted - started + pingMs + 50) assert.ok(pingStarted - started + pingMs < readDone, 'ping answered before the read ended');
    } finally {
      await client.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
