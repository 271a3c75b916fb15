/** The page's window; the sandbox's global object where the core is run without a browser. */
export var global = typeof window !== "undefined" ? window : globalThis;
