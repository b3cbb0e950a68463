import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { type JsonSchema, validateAgainst } from '../config/schema-validation.js';
import { bootErrors } from '../errors.js';
import { RUNTIME_VERSION } from '../paths.js';
import manifestSchema from './manifest.schema.json' with { type: 'json' };

export interface PluginManifest {
  name: string;
  version: string;
  description?: string;
  runtime: string;
  main: string;
  service: string;
  dependsOn: string[];
  optionalDependencies: string[];
  consumes: string[];
  provides: string[];
  hooks: string[];
  configSchema?: string;
  /** `<plugin>.<member>` paths its settings lived at before it was split out (runtime.ts moves them). */
  formerConfig: string[];
  migrations?: string;
}

/** A plugin found on the loader path, its manifest checked but none of its code run. */
export interface PluginDescriptor {
  manifest: PluginManifest;
  /** Folder the manifest's relative paths resolve against. */
  dir: string;
  manifestFile: string;
  /**
   * Where it came from: the folder itself, or a .tgz, unpacked into `cacheFolder` when it is selected (discover.ts).
   */
  origin: { kind: 'folder'; path: string } | { kind: 'archive'; path: string; cacheFolder: string };
}

export const MANIFEST_FILE = 'plugin.json';

/** Read and check a manifest; any problem throws E_MANIFEST_INVALID naming the file. */
export function readManifest(manifestFile: string): PluginManifest {
  let text: string;
  try {
    text = readFileSync(manifestFile, 'utf8');
  } catch (error) {
    throw bootErrors.manifestInvalid(manifestFile, `cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  return parseManifest(text, manifestFile);
}

/** Check a manifest's text; problems throw E_MANIFEST_INVALID naming `source` (its file, or the archive holding it). */
export function parseManifest(text: string, source: string): PluginManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw bootErrors.manifestInvalid(source, `is not valid JSON: ${(error as Error).message}`);
  }
  const result = validateAgainst<PluginManifest>(manifestSchema as JsonSchema, raw, { applyDefaults: true });
  if (!result.valid) throw bootErrors.manifestInvalid(source, result.problems.join('; '));
  const manifest = result.value;
  checkConsistency(source, manifest);
  return manifest;
}

function checkConsistency(file: string, manifest: PluginManifest): void {
  if (!semver.validRange(manifest.runtime)) {
    throw bootErrors.manifestInvalid(file, `runtime must be a semver range, got ${JSON.stringify(manifest.runtime)}`);
  }
  for (const name of [...manifest.provides, ...manifest.hooks]) {
    if (!name.startsWith(`${manifest.name}.`)) {
      throw bootErrors.manifestInvalid(file, `"${name}" must be named after the plugin, as "${manifest.name}.<name>"`);
    }
  }
  const self = [...manifest.dependsOn, ...manifest.optionalDependencies].find((d) => d === manifest.name);
  if (self) throw bootErrors.manifestInvalid(file, 'a plugin cannot depend on itself');
}

export function checkRuntimeRange(descriptor: PluginDescriptor, version = RUNTIME_VERSION): void {
  if (!semver.satisfies(version, descriptor.manifest.runtime, { includePrerelease: true })) {
    throw bootErrors.runtimeIncompatible(descriptor.manifestFile, descriptor.manifest.runtime, version);
  }
}

export function resolveInPlugin(descriptor: PluginDescriptor, relative: string): string {
  return path.resolve(descriptor.dir, relative);
}

/** A JSON Schema file a manifest names (its config schema); problems name the manifest. */
export function readJsonSchema(file: string, manifestFile: string): JsonSchema {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as JsonSchema;
  } catch (error) {
    throw bootErrors.manifestInvalid(
      manifestFile,
      `configSchema ${file} cannot be read as JSON: ${(error as Error).message}`,
    );
  }
}
