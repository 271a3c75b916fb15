import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../setup/databases";

// The production build (`npm run build`) carries none of local mode's tools: no dev route, no dev
// module, no admin access stand-in (remix.config.js). Built here into a directory of its own, so the
// development build the other server tests run stays in place.
describe("the production build", () => {
  let server = "";
  let dir = "";
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-production-build-"));
    execFileSync(process.execPath, [path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", REMIX_BUILD_DIR: dir },
      stdio: "pipe",
    });
    server = fs.readFileSync(path.join(dir, "index.js"), "utf8");
  }, 180_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("has the app's routes and the background work, and no dev route, dev module or admin stand-in", () => {
    // What must be there, so that the absences below mean something.
    for (const present of ['"routes/app"', '"routes/proxy.send-otp"', "// app/core/shopify/app.server.ts", "startBackgroundWork"]) {
      expect(server).toContain(present);
    }
    const devModules = server.match(/^\/\/ app\/dev\/.*$/gm) ?? [];
    expect(devModules).toEqual([]);
    for (const absent of ['"routes/dev.', '"routes/cart', '"routes/apps.$subpath.$"', "withDevSessionToken", "sessionToken(", "/dev/storefront"]) {
      expect(server, absent).not.toContain(absent);
    }
  });
});
