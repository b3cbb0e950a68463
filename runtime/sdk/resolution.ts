import { fileURLToPath } from 'node:url';
import { installPluginResolution } from '../module-resolution/install-resolution.mjs';
import * as pluginSdk from './plugin.js';

const SDK_GLOBAL = Symbol.for('vela.plugin-sdk');

/**
 * Make plugin code resolve `vela/plugin` to this host's SDK, and fall back to the host's packages for
 * what a plugin does not bundle. CommonJS plugins get the SDK namespace this module imported (through
 * plugin.cjs), so they share the one instance with ES module plugins. Idempotent; the CLI calls it
 * before loading anything, the Runtime again for embedders and tests.
 */
export function registerPluginResolution(): void {
  (globalThis as Record<symbol, unknown>)[SDK_GLOBAL] ??= pluginSdk;
  installPluginResolution({ 'vela/plugin': fileURLToPath(new URL('./plugin.cjs', import.meta.url)) });
}
