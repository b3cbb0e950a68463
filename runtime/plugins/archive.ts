// Plugin archives: `vela pack` writes them (pack-plugin.ts), the loader reads their manifests and unpacks
// the selected ones (unpack-archive.ts).
export { packPlugin } from './pack-plugin.js';
export { describeArchive, unpackArchive } from './unpack-archive.js';
