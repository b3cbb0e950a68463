// Module resolution hooks for plugin code (registered with node:module register(); they run on Node's
// loader thread, so this file is plain JavaScript). Two rules:
//   1. The SDK's bare names (`vela/plugin`, `vela/testing`) resolve to the host's own files, wherever the
//      importing plugin lives, so every plugin shares the one runtime instance that loaded it.
//   2. A bare specifier a plugin cannot resolve from its own folder (its bundled node_modules first, as
//      Node does) is resolved from the host's package: what the host already has is shared.
let sdk = {};
let hostParent = '';

export function initialize(data) {
  sdk = data.sdk;
  hostParent = data.hostParent;
}

const isBare = (specifier) => !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier) && !specifier.startsWith('#');

export async function resolve(specifier, context, nextResolve) {
  const own = sdk[specifier];
  // Through the next resolver (tsx), which tells the loader the file's format.
  if (own) return nextResolve(own, context);
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (
      error?.code !== 'ERR_MODULE_NOT_FOUND' ||
      !isBare(specifier) ||
      !context.parentURL ||
      context.parentURL.startsWith(hostParent)
    )
      throw error;
    return nextResolve(specifier, { ...context, parentURL: `${hostParent}package.json` });
  }
}
