#!/usr/bin/env node
// The `vela` command. The runtime and its plugins are TypeScript; tsx loads them without a build
// step. Importing 'tsx' registers both its ESM and CommonJS hooks (as `node --import tsx` does), so
// a plugin folder without a package.json of its own loads too. Then plugins' `vela/plugin` imports
// are pointed at this host (runtime/sdk/resolution.ts) before any plugin code can load.
await import('tsx');
await import('../runtime/sdk/register.mjs');
const { main } = await import('../runtime/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
