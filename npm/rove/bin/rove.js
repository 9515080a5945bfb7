#!/usr/bin/env node
// Runs the rove binary of this platform's package (rove-<os>-<cpu>, an
// optional dependency npm installs only where it fits), with this
// process's arguments, standard streams and exit status.
"use strict";
const { spawnSync } = require("node:child_process");

const platform = `rove-${process.platform}-${process.arch}`;
let exe;
try {
  exe = require.resolve(`${platform}/bin/rove`);
} catch {
  process.stderr.write(
    `rove: no build for ${process.platform}-${process.arch} was installed (the package ${platform}); ` +
      "rove ships for linux-x64 on npm; elsewhere build it from source (cargo build --release)\n",
  );
  process.exit(6);
}
const run = spawnSync(exe, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  process.stderr.write(`rove: could not start ${exe}: ${run.error.message}\n`);
  process.exit(6);
}
if (run.signal) {
  // Ended by a signal: end the same way, so the caller sees it.
  process.kill(process.pid, run.signal);
}
process.exit(run.status ?? 1);
