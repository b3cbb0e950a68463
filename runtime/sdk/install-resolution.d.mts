export declare const hostRoot: string;
export declare const sdkEntries: Readonly<Record<string, string>>;
export declare function installPluginResolution(requireTargets?: Record<string, string>): void;
