// Plugin archives: `vela pack` writes them (pack-plugin.ts), the loader unpacks them (unpack-archive.ts).
export { packPlugin } from './pack-plugin.js';
export { unpackArchive } from './unpack-archive.js';
