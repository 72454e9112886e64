// Runs mcp-edit for a host under test and records how it ended, so the host tests can check that
// the server a host started exited 0 and wrote nothing alarming (harness.mjs: watchedServer,
// serverEnded). A host's config names this script instead of the binary:
//   node server_watch.mjs STATUS_FILE BINARY ARGS...
// The server gets the host's stdin and stdout as they are (no bytes pass through here); its
// stderr goes to STATUS_FILE.<watcher pid>.stderr. STATUS_FILE gets one JSON line per event:
// {watcher, event: "start", pid, stderr} when the server runs, {watcher, event: "signal", signal}
// for each signal the host sent this process (passed on to the server), and {watcher, event:
// "exit", code, signal} when the server has ended. The watcher then ends the same way the server
// did. A SIGKILL of the watcher cannot be recorded: the start has no exit line then.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const [statusFile, binary, ...args] = process.argv.slice(2);
const record = (event) => fs.appendFileSync(statusFile, `${JSON.stringify({ watcher: process.pid, ...event })}\n`);
const stderrFile = `${statusFile}.${process.pid}.stderr`;
const stderr = fs.openSync(stderrFile, 'a');
const server = spawn(binary, args, { stdio: ['inherit', 'inherit', stderr] });
fs.closeSync(stderr);
server.on('error', (err) => {
  record({ event: 'exit', code: null, signal: null, error: `cannot start ${binary}: ${err.message}` });
  process.exit(127);
});
record({ event: 'start', pid: server.pid, stderr: stderrFile });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    record({ event: 'signal', signal });
    server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  record({ event: 'exit', code, signal });
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});
