import path from "node:path";
import vm from "node:vm";
import { build } from "esbuild";
import ts from "typescript";
import { cartPaymentMethodsTransformRun, type CartPaymentMethodsTransformRunInput as RunInput } from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";

/**
 * The checkout function as Shopify runs it: bundled the way the Shopify CLI bundles a JavaScript function
 * (esbuild, `bundle`, `target: es2022`, the source's exports behind one entry; the CLI then hands the file to
 * Javy, which runs it in QuickJS), and run where only the language's own built-ins exist: no `process`, no
 * `require`, no `console`, no timers, no `TextEncoder`, nothing Node adds and QuickJS lacks. On every cart below
 * the sandbox's answer is node's. Its size is held to a bound, and so is its work per cart: the bundle is
 * instrumented to count every function entered and every loop turn (deterministic, unlike a time), and the
 * count must stay under a bound linear in what the cart holds (payment methods, delivery groups, configured
 * names and time-zone offsets, phone characters). `npm run` nothing: esbuild is the app's own.
 */
/**
 * QuickJS itself (the dev dependency `quickjs-emscripten`, QuickJS compiled to WebAssembly: the engine Javy
 * embeds): the same carts run there too, with the same count of work as the sandbox. Its absence fails a test.
 */
type QuickJsContext = { evalCode(code: string): { error?: { dispose(): void }; value?: { dispose(): void } }; dump(handle: unknown): unknown; dispose(): void };
const QUICKJS_PACKAGE = "quickjs-emscripten";
const quickjs = (await import(/* @vite-ignore */ QUICKJS_PACKAGE).catch(() => null)) as { getQuickJS(): Promise<{ newContext(): QuickJsContext }> } | null;

const DIR = path.resolve(__dirname, "../../extensions/cod-payment-customization");
/** The bundle's size bound: a tenth of what it could grow to and still be a small module for Javy. */
const MAX_BUNDLE_BYTES = 8 * 1024;

/** What the CLI's ExportJavyBuilder generates for the toml's `export = "cart-payment-methods-transform-run"`, with the runtime's stdin/stdout as two globals. */
const ENTRY = `
import { cartPaymentMethodsTransformRun as run } from "./src/index";
globalThis.cartPaymentMethodsTransformRun = () => { globalThis.__output = JSON.stringify(run(JSON.parse(globalThis.__input))); };
`;

async function bundle(): Promise<string> {
  const out = await build({
    stdin: { contents: ENTRY, loader: "ts", resolveDir: DIR },
    bundle: true,
    write: false,
    target: "es2022",
    format: "iife",
    legalComments: "none",
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

/** The bundle with `__work.n++` at the start of every function body and every loop body. */
function instrument(source: string): string {
  const tick = () => ts.factory.createExpressionStatement(ts.factory.createPostfixIncrement(ts.factory.createPropertyAccessExpression(ts.factory.createIdentifier("__work"), "n")));
  const counted = (body: ts.Statement) => ts.factory.createBlock([tick(), ...(ts.isBlock(body) ? body.statements : [body])], true);
  const transformer: ts.TransformerFactory<ts.SourceFile> = (context) => {
    const visit = (node: ts.Node): ts.Node => {
      const n = ts.visitEachChild(node, visit, context);
      if (ts.isFunctionDeclaration(n) && n.body) return ts.factory.updateFunctionDeclaration(n, n.modifiers, n.asteriskToken, n.name, n.typeParameters, n.parameters, n.type, counted(n.body));
      if (ts.isFunctionExpression(n)) return ts.factory.updateFunctionExpression(n, n.modifiers, n.asteriskToken, n.name, n.typeParameters, n.parameters, n.type, counted(n.body));
      if (ts.isArrowFunction(n)) {
        const body = ts.isBlock(n.body) ? counted(n.body) : ts.factory.createBlock([tick(), ts.factory.createReturnStatement(n.body)], true);
        return ts.factory.updateArrowFunction(n, n.modifiers, n.typeParameters, n.parameters, n.type, n.equalsGreaterThanToken, body);
      }
      if (ts.isMethodDeclaration(n) && n.body) return ts.factory.updateMethodDeclaration(n, n.modifiers, n.asteriskToken, n.name, n.questionToken, n.typeParameters, n.parameters, n.type, counted(n.body));
      if (ts.isForStatement(n)) return ts.factory.updateForStatement(n, n.initializer, n.condition, n.incrementor, counted(n.statement));
      if (ts.isForOfStatement(n)) return ts.factory.updateForOfStatement(n, n.awaitModifier, n.initializer, n.expression, counted(n.statement));
      if (ts.isForInStatement(n)) return ts.factory.updateForInStatement(n, n.initializer, n.expression, counted(n.statement));
      if (ts.isWhileStatement(n)) return ts.factory.updateWhileStatement(n, n.expression, counted(n.statement));
      if (ts.isDoStatement(n)) return ts.factory.updateDoStatement(n, counted(n.statement), n.expression);
      return n;
    };
    return (file) => ts.visitNode(file, visit) as ts.SourceFile;
  };
  const file = ts.createSourceFile("function.js", source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const result = ts.transform(file, [transformer]);
  return ts.createPrinter().printFile(result.transformed[0]);
}

/** A context with the language's built-ins only (vm's fresh realm), as QuickJS gives a Javy module. */
function sandbox(source: string) {
  const context = vm.createContext({ __work: { n: 0 } });
  new vm.Script(source, { filename: "function.js" }).runInContext(context, { timeout: 5000 });
  return (input: RunInput) => {
    context.__work.n = 0;
    context.__input = JSON.stringify(input);
    vm.runInContext("cartPaymentMethodsTransformRun()", context);
    return { output: JSON.parse(context.__output as string) as unknown, work: context.__work.n as number };
  };
}

const TODAY = "2026-11-29";
const EXPIRES = Math.floor(Date.parse(`${TODAY}T23:00:00Z`) / 1000);
const proof = (digits: string, extra: { band?: string; expiresAt?: number; holdout?: boolean } = {}) =>
  extra.holdout
    ? `v3.${digits}.cod.${extra.expiresAt ?? EXPIRES}.sel_1.${"a".repeat(32)}`
    : extra.band
      ? `v2.${digits}.cod.${extra.expiresAt ?? EXPIRES}.sel_1.${extra.band}.${"a".repeat(32)}`
      : `v1.${digits}.cod.${extra.expiresAt ?? EXPIRES}.sel_1.${"a".repeat(32)}`;

/** A zone's offsets as the app writes them (`utcOffsets`: [start, minutes], one a half-year, as a zone with summer time has). */
const offsets = (n: number) => ({ utcOffsets: Array.from({ length: n }, (_, i) => [EXPIRES - (n - i) * 182 * 86_400, i % 2 ? 60 : 0]), utcOffsetsUntil: EXPIRES + 365 * 86_400 });

function cart(o: { proof?: string | null; phone?: string | null; groups?: (string | null)[]; methods?: number; names?: number; verified?: boolean; enforce?: boolean; offsets?: number } = {}): RunInput {
  const methods = Array.from({ length: o.methods ?? 3 }, (_, i) => ({ id: `gid://shopify/PaymentCustomizationPaymentMethod/${i}`, name: i === 1 ? "Cash on Delivery (COD)" : i % 5 === 4 ? `Pay on delivery ${i}` : `Card ${i}` }));
  const names = Array.from({ length: o.names ?? 1 }, (_, i) => (i === 0 ? "Cash on Delivery (COD)" : `Pay on delivery ${i * 5 + 4}`));
  return {
    cart: {
      proof: o.proof === undefined || o.proof === null ? null : { value: o.proof },
      buyerIdentity: { phone: o.phone ?? null, customer: o.verified === undefined ? null : { verified: o.verified } },
      deliveryGroups: (o.groups ?? [null]).map((phone) => ({ deliveryAddress: { phone } })),
    },
    paymentMethods: methods,
    paymentCustomization: { metafield: { jsonValue: { codMethodNames: names, ...(o.enforce === undefined ? {} : { enforce: o.enforce }), ...(o.offsets ? offsets(o.offsets) : {}) } } },
    shop: { localTime: { date: TODAY } },
  };
}

const CARTS: [string, RunInput][] = [
  ["no proof", cart()],
  ["a proof for the buyer's phone", cart({ proof: proof("212600000002"), phone: "+212 600-000002" })],
  ["a proof matched by a delivery address's national number", cart({ proof: proof("919812345678"), groups: [null, "098123 45678"] })],
  ["a proof for another phone", cart({ proof: proof("212600000002"), phone: "+212600000003" })],
  ["an expired proof", cart({ proof: proof("212600000002", { expiresAt: EXPIRES - 3 * 86_400 }), phone: "+212600000002" })],
  ["a high-risk proof for a verified customer", cart({ proof: proof("212600000002", { band: "h" }), phone: "+212600000002", verified: true })],
  ["a held-out shopper's proof", cart({ proof: proof("212600000002", { holdout: true }), phone: "+212600000002" })],
  ["a returning verified customer", cart({ verified: true })],
  ["enforcement paused", cart({ enforce: false })],
  ["a malformed proof", cart({ proof: "v1.not-a-proof", phone: "+212600000002" })],
  ["a shop's zone with its offsets", cart({ proof: proof("212600000002"), phone: "+212600000002", offsets: 4 })],
  ["many methods, groups, names and offsets", cart({ offsets: 40, proof: proof("212600000002"), phone: "0600000009", methods: 40, groups: Array.from({ length: 20 }, (_, i) => `+2126000000${String(i).padStart(2, "0")}`), names: 20 })],
];

/** The bound on the work of one run: a constant, plus a few steps for each thing in the cart and each phone character. */
function workBound(input: RunInput): number {
  const phones = [input.cart.buyerIdentity?.phone, ...input.cart.deliveryGroups.map((g) => g.deliveryAddress?.phone)];
  const chars = phones.reduce((n, p) => n + (p?.length ?? 0), 0);
  const configuration = input.paymentCustomization.metafield?.jsonValue as { codMethodNames?: unknown[]; utcOffsets?: unknown[] };
  const names = configuration.codMethodNames?.length ?? 0;
  return 40 + 4 * (input.paymentMethods.length + input.cart.deliveryGroups.length + names + (configuration.utcOffsets?.length ?? 0)) + 2 * chars;
}

describe("the checkout function's bundle", () => {
  let source: string;
  let run: ReturnType<typeof sandbox>;
  beforeAll(async () => {
    source = await bundle();
    run = sandbox(instrument(source));
  });

  it(`is small (at most ${MAX_BUNDLE_BYTES} bytes) and names nothing outside the language`, () => {
    console.log(`function bundle: ${Buffer.byteLength(source)} bytes`);
    expect(Buffer.byteLength(source)).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
    // Plain sandbox, no instrumentation: a reference to a Node global would throw here.
    const plain = sandbox(source);
    expect(plain(cart()).output).toEqual(cartPaymentMethodsTransformRun(cart()));
  });

  it.each(CARTS)("%s: the sandbox answers what node answers, within the work bound", (_name, input) => {
    const { output, work } = run(input);
    expect(output).toEqual(cartPaymentMethodsTransformRun(input));
    expect(work).toBeGreaterThan(0);
    expect(work, `work ${work} for a bound of ${workBound(input)}`).toBeLessThanOrEqual(workBound(input));
  });

  it("its work grows with the cart, not faster: ten times the methods and groups is at most ten times the work", () => {
    const small = run(cart({ proof: proof("212600000002"), phone: "0600000009", methods: 4, groups: ["+212600000001", "+212600000002"] })).work;
    const large = run(cart({ proof: proof("212600000002"), phone: "0600000009", methods: 40, groups: Array.from({ length: 20 }, (_, i) => `+2126000000${String(i).padStart(2, "0")}`) })).work;
    console.log(`function work: ${small} steps (4 methods, 2 groups), ${large} steps (40 methods, 20 groups)`);
    expect(large).toBeLessThanOrEqual(10 * small);
  });

  it("the instrumentation counts (a quadratic loop planted in a copy is over the bound)", () => {
    const planted = instrument(source.replace("function normalizeMethodName(name) {", "function normalizeMethodName(name) {\n for (let i = 0; i < 500; i++) {}"));
    expect(planted).not.toBe(instrument(source));
    const input = CARTS[CARTS.length - 1][1];
    expect(sandbox(planted)(input).work).toBeGreaterThan(workBound(input));
  });

  it("QuickJS is there to run them (the dev dependency quickjs-emscripten)", () => {
    expect(quickjs).not.toBeNull();
  });

  it.skipIf(!quickjs).each(CARTS)("%s: QuickJS answers what node answers, within the same work bound", async (_name, input) => {
    const engine = await quickjs!.getQuickJS();
    const context = engine.newContext();
    try {
      const program = `globalThis.__work = { n: 0 };\n${instrument(source)}\n__work.n = 0;\nglobalThis.__input = ${JSON.stringify(JSON.stringify(input))};\ncartPaymentMethodsTransformRun();\nJSON.stringify({ output: JSON.parse(globalThis.__output), work: __work.n })`;
      const result = context.evalCode(program);
      if (result.error) {
        const error = context.dump(result.error);
        result.error.dispose();
        throw new Error(`QuickJS: ${JSON.stringify(error)}`);
      }
      const { output, work } = JSON.parse(context.dump(result.value) as string) as { output: unknown; work: number };
      result.value!.dispose();
      expect(output).toEqual(cartPaymentMethodsTransformRun(input));
      expect(work).toBe(run(input).work);
    } finally {
      context.dispose();
    }
  });

  it("a Node global in the bundle fails in the sandbox (the sandbox is bare)", () => {
    const leaky = source.replace("globalThis.__output =", "process.stdout; globalThis.__output =");
    expect(() => sandbox(leaky)(cart())).toThrow(/process is not defined/);
  });
});
