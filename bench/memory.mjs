// Memory workload (issue 26): RSS of one mcp-edit server after one `insert` in each of N big files,
// and the peak RSS of one edit of a 50 MB file. node bench/memory.mjs [--files=10] [--mb=20] [--big=50]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MCP_EDIT_BIN || path.join(here, '..', 'build', 'mcp-edit');
const opt = (name, dflt) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : dflt;
};
const FILES = opt('files', 10);
const MB = opt('mb', 20);
const BIG = opt('big', 50);
const EXTRA = process.argv.filter((x) => x.startsWith('--server-arg=')).map((x) => x.slice('--server-arg='.length));

function content(bytes) {
  const line = 'const value_0000 = compute(alpha, beta, gamma); // a line of ordinary source text\n';
  return Buffer.alloc(bytes, line);
}

class Server {
  constructor(root) {
    this.proc = spawn(BIN, ['--root', root, '--approval', 'auto', '--log-level', 'off', ...EXTRA], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.buf = '';
    this.waiting = new Map();
    this.id = 0;
    this.proc.stdout.on('data', (d) => {
      this.buf += d;
      let nl;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(this.buf.slice(0, nl));
        this.buf = this.buf.slice(nl + 1);
        if (msg.id != null && this.waiting.has(msg.id)) { this.waiting.get(msg.id)(msg); this.waiting.delete(msg.id); }
      }
    });
  }
  call(method, params) {
    const id = ++this.id;
    this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }
  async init() {
    await this.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-memory', version: '1' } });
    this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  }
  async tool(name, args) {
    const r = await this.call('tools/call', { name, arguments: args });
    if (r.error || r.result.isError) throw new Error(`${name} failed: ${JSON.stringify(r.error || r.result.content)}`.slice(0, 400));
    return r.result;
  }
  status() {
    const s = fs.readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
    const kb = (k) => Number(s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm'))[1]);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  }
  stop() { this.proc.stdin.end(); }
}

const settle = () => new Promise((r) => setTimeout(r, 300));  // the after-reply work (history, session base)
const mib = (x) => Math.round(x * 10) / 10;

async function manyFiles() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-edit-mem-'));
  const data = content(MB << 20);
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, `f${i}.txt`), data);
  const s = new Server(root);
  await s.init();
  const rss = [];
  for (let i = 0; i < FILES; i++) {
    await s.tool('insert', { file_path: path.join(root, `f${i}.txt`), line: 0, text: `// edit ${i}` });
    await settle();
    rss.push(mib(s.status().rss));
  }
  s.stop();
  fs.rmSync(root, { recursive: true, force: true });
  return rss;
}

async function bigOne() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-edit-mem-'));
  const file = path.join(root, 'big.txt');
  fs.writeFileSync(file, content(BIG << 20));
  const s = new Server(root);
  await s.init();
  await s.tool('insert', { file_path: file, line: 0, text: '// one edit' });
  await settle();
  const st = s.status();
  s.stop();
  fs.rmSync(root, { recursive: true, force: true });
  return { peak: mib(st.hwm), after: mib(st.rss) };
}

const rss = await manyFiles();
const big = await bigOne();
console.log(JSON.stringify({
  bin: BIN, files: FILES, file_mib: MB, rss_after_each_mib: rss,
  big_mib: BIG, big_peak_rss_mib: big.peak, big_peak_x_file: mib(big.peak / BIG), big_rss_after_mib: big.after,
}));
