#!/usr/bin/env node
// The `mcp-edit` command of the npm package: runs the native executable of this platform, which npm
// installed from one of the optional packages mcp-edit-<os>-<cpu> (no download, no install script).
// The child is started asynchronously and the signals a host or npx sends the launcher (SIGTERM,
// SIGINT, SIGHUP; on Windows the console's Ctrl+C and close) are passed on, so stopping the
// launcher stops the server instead of leaving it running until its stdin closes. The launcher
// exits as the server did: its exit code, or the same signal.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const supported = ["darwin-arm64", "darwin-x64", "linux-x64", "win32-x64"];
const platform = `${process.platform}-${process.arch}`;
const pkg = `mcp-edit-${platform}`;
const exe = process.platform === "win32" ? "mcp-edit.exe" : "mcp-edit";

let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
} catch {
  process.stderr.write(
    supported.includes(platform)
      ? `mcp-edit: the package ${pkg}, which holds the executable for ${platform}, is not installed: ` +
          (process.platform === "linux" && !glibc()
            ? "it needs glibc 2.34 or later (Debian 12, Ubuntu 22.04, RHEL 9 and later), and this system has none " +
              "(musl, e.g. Alpine); use a glibc-based system or image\n"
            : "reinstall without --no-optional / --omit=optional (e.g. npx -y mcp-edit@latest)\n")
      : `mcp-edit: no executable for ${platform}; there are packages for ${supported.join(", ")}\n`,
  );
  process.exit(1);
}

// Whether this Linux has glibc (process.report names its version; musl has none).
function glibc() {
  try {
    return Boolean(process.report.getReport().header.glibcVersionRuntime);
  } catch {
    return true;
  }
}

// stdin and stdout are the child's own (inherited): MCP messages go straight through, not via Node.
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

child.on("error", (error) => {
  let why = error.message;
  // A Linux executable whose loader is missing fails as ENOENT although the file is there: on
  // musl, or with a glibc older than the 2.34 it was built for.
  if (error.code === "ENOENT" && process.platform === "linux" && fs.existsSync(binary))
    why += " (the executable needs glibc 2.34 or later: Debian 12, Ubuntu 22.04, RHEL 9 and later; not musl)";
  process.stderr.write(`mcp-edit: could not start ${binary}: ${why}\n`);
  process.exit(1);
});

// Passed on to the server, which finishes its in-flight writes and exits; the launcher then exits
// as it did (below). On Windows, Node turns the console's Ctrl+C into SIGINT and closing the
// console into SIGHUP; the child shares the console and gets them too, and kill() ends it.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  });
}

child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, as a shell would report it; the handlers above no longer apply.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
