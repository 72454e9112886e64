// Runs mcp-edit's native executable as the server, for the two Node entries that start it: the npm
// package's `mcp-edit` command and the Claude Desktop bundle's node entry. The child is spawned
// asynchronously with stdio passed straight through (MCP never goes through Node), the signals a
// host or npx sends (SIGTERM, SIGINT, SIGHUP; on Windows, Node's SIGINT and SIGHUP for the
// console's Ctrl+C and close) are passed on, and the process exits as the server did: its exit
// code, or the same signal. Copied beside each entry by scripts/package.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");

// Whether this Linux has glibc (process.report names its version; musl has none).
function hasGlibc() {
  try {
    return Boolean(process.report.getReport().header.glibcVersionRuntime);
  } catch {
    return true;
  }
}

// Why an executable that is there could not start, said for a human.
function startFailure(binary, error) {
  let why = error.message;
  // A Linux executable whose loader is missing fails as ENOENT although the file is there: on
  // musl, or with a glibc older than the 2.34 it was built for.
  if (error.code === "ENOENT" && process.platform === "linux" && fs.existsSync(binary))
    why += " (the executable needs glibc 2.34 or later: Debian 12, Ubuntu 22.04, RHEL 9 and later; not musl)";
  return `mcp-edit: could not start ${binary}: ${why}\n`;
}

function runNative(binary, args) {
  // The handlers come first: the server runs (and may answer its client) as soon as spawn returns,
  // and a signal that reached this process before they were in place would end it by default,
  // leaving the server behind. One that comes before the child exists is passed on when it does.
  let child = null;
  const early = [];
  const forward = (signal) => {
    try {
      // Windows knows no SIGHUP to send (the console's close reaches the child itself): end it.
      child.kill(process.platform === "win32" && signal === "SIGHUP" ? "SIGTERM" : signal);
    } catch {
      // already gone
    }
  };
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
    process.on(signal, () => (child ? forward(signal) : early.push(signal)));
  }
  child = spawn(binary, args, { stdio: "inherit", windowsHide: true });
  child.on("error", (error) => {
    process.stderr.write(startFailure(binary, error));
    process.exit(1);
  });
  for (const signal of early) forward(signal);
  child.on("exit", (code, signal) => {
    if (signal) {
      // Die of the same signal, as a shell would report it; the handlers above no longer apply.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

module.exports = { hasGlibc, runNative };
