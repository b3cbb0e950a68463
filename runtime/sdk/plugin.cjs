// `require('vela/plugin')` from a plugin loaded as CommonJS (a folder without "type": "module"): the
// host registers its SDK namespace on a global before any plugin loads, so CommonJS plugins share the
// same instance as ES module ones. A worker thread without it loads its own copy.
const sdk = globalThis[Symbol.for('vela.plugin-sdk')];
module.exports = sdk ?? require('./plugin.ts');
