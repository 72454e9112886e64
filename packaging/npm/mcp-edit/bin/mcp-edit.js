#!/usr/bin/env node
// The `mcp-edit` command of the npm package: runs the native executable of this platform, which npm
// installed from one of the optional packages mcp-edit-<os>-<cpu> (no download, no install script).
"use strict";
const { spawnSync } = require("node:child_process");
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
          `reinstall without --no-optional / --omit=optional (e.g. npx -y mcp-edit@latest)\n`
      : `mcp-edit: no executable for ${platform}; there are packages for ${supported.join(", ")}\n`,
  );
  process.exit(1);
}

// stdin and stdout are the child's own (inherited): MCP messages go straight through, not via Node.
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (result.error) {
  process.stderr.write(`mcp-edit: could not start ${binary}: ${result.error.message}\n`);
  process.exit(1);
}
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
