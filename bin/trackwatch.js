#!/usr/bin/env node
// The trackwatch command runs the TypeScript sources directly: Node 24 strips types natively.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    `trackwatch: needs Node 24 or newer, this is Node ${process.versions.node}. Install Node 24 (see README.md, "Prerequisites").\n`,
  );
  process.exit(1);
}
// Node keeps the compiled (and type-stripped) modules in its compile cache (os.tmpdir()/node-compile-cache, keyed
// by content): a command starts in about half the time from the second run on. A cache that cannot be written is
// skipped by Node itself, so this never fails a command.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main } = await import('../src-main/cli/main.ts');
const { processIo } = await import('../src-main/cli/io.ts');
process.exitCode = await main(process.argv, processIo());
