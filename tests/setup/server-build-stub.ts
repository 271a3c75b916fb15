// Vitest's stand-in for `@remix-run/dev/server-build`, the virtual module only the Remix compiler
// provides, so that tests can import app/server-build.ts (its job kinds) without a build.
export {};
