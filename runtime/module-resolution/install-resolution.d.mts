export declare function installPluginResolution(requireTargets?: Record<string, string>): void;
