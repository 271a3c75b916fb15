export function loadDotEnv(file: string, env?: Record<string, string | undefined>): void;
