export function resolveDatabaseUrl(raw: string | undefined): string;
export function providerOf(url: string): "sqlite" | "postgresql";
export function sqlitePath(url: string): string;
export function applyMigrations(rawUrl: string | undefined): Promise<string[]>;
export function expectedMigrationNames(provider: "sqlite" | "postgresql"): string[];
export function pendingMigrations(rawUrl: string | undefined): Promise<string[]>;
