import fs from "node:fs";
import path from "node:path";
import { loadEnv, scopesOfAppConfig } from "~/core/env.server";

describe("loadEnv", () => {
  it("runs with no configuration at all outside production, in local mode with development secrets", () => {
    const env = loadEnv({});
    expect(env.localMode).toBe(true);
    expect(env.SHOPIFY_API_SECRET).toBeTruthy();
    expect(env.SMS_PROVIDER).toBe("outbox");
    expect(env.proxyBasePath).toBe("/apps/cod");
  });

  it("refuses to start in production without its secrets and names each one", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(
      /SHOPIFY_API_KEY, SHOPIFY_API_SECRET, SHOPIFY_APP_URL, OTP_HASH_SECRET, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_MESSAGING_SERVICE_SID or TWILIO_FROM_NUMBER/,
    );
  });

  it("accepts a complete production configuration and uses Twilio", () => {
    const env = loadEnv({
      NODE_ENV: "production",
      SHOPIFY_API_KEY: "k",
      SHOPIFY_API_SECRET: "s",
      SHOPIFY_APP_URL: "https://cod.example.com",
      OTP_HASH_SECRET: "x".repeat(32),
      TWILIO_ACCOUNT_SID: "AC1",
      TWILIO_AUTH_TOKEN: "t",
      TWILIO_FROM_NUMBER: "+15005550006",
    });
    expect(env.localMode).toBe(false);
    expect(env.SMS_PROVIDER).toBe("twilio");
  });

  it("refuses SMS_PROVIDER=outbox in production unless local mode is asked for explicitly", () => {
    const production = {
      NODE_ENV: "production",
      SHOPIFY_API_KEY: "k",
      SHOPIFY_API_SECRET: "s",
      SHOPIFY_APP_URL: "https://cod.example.com",
      OTP_HASH_SECRET: "x".repeat(32),
      SMS_PROVIDER: "outbox",
    };
    expect(() => loadEnv(production)).toThrow(/SMS_PROVIDER=outbox is refused in production/);
    expect(loadEnv({ ...production, LOCAL_MODE: "true" }).SMS_PROVIDER).toBe("outbox");
  });

  it("treats empty variables as unset and rejects malformed ones clearly", () => {
    expect(loadEnv({ PORT: "" }).PORT).toBe(3000);
    expect(() => loadEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadEnv({ OTP_HASH_SECRET: "short" })).toThrow(/OTP_HASH_SECRET: must be at least 32 characters/);
    expect(() => loadEnv({ DATABASE_URL: "mysql://x" })).not.toThrow();
  });
});

describe("the access scopes", () => {
  const root = path.resolve(__dirname, "../..");

  it("are shopify.app.toml's, unless SCOPES says otherwise", () => {
    const fromToml = scopesOfAppConfig(root)!;
    expect(fromToml.split(",")).toContain("read_orders");
    expect(loadEnv({}).SCOPES).toBe(fromToml);
    expect(loadEnv({ SCOPES: "read_orders" }).SCOPES).toBe("read_orders");
    expect(scopesOfAppConfig(path.join(root, "docs"))).toBeUndefined();
  });

  it("are written nowhere else: no source, script or example repeats the list", () => {
    const list = scopesOfAppConfig(root)!;
    const files = ["app", "scripts", "tests", "prisma"].flatMap((dir) =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile() && /\.(m?[jt]s|tsx)$/.test(d.name))
        .map((d) => path.join(d.parentPath, d.name)),
    );
    const repeats = [...files, path.join(root, ".env.example"), path.join(root, "README.md")].filter((f) => fs.readFileSync(f, "utf8").includes(list));
    expect(repeats.map((f) => path.relative(root, f))).toEqual([]);
  });
});
