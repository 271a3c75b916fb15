import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DropZone,
  IndexTable,
  InlineStack,
  Layout,
  List,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { AdminPage, useNotice, type Notice } from "~/admin/app-bridge";
import { TableEmpty, TableFooter } from "~/ui/table-parts";
import { authenticate } from "~/core/shopify/app.server";
import { adminShop } from "~/core/settings/shop.server";
import { blockPhone, importBlockedPhones, listBlockedPhones, unblockPhone } from "~/otp/blocklist.server";
import type { BlocklistImportProblem } from "~/otp/blocklist-import";
import { BLOCK_PERIOD_DAYS, BLOCKLIST_IMPORT_MAX_LINES, BLOCKLIST_REASON_MAX } from "~/otp/blocklist-limits";
import { maskPhone } from "~/shared/phone-mask";
import { shopDate } from "~/shared/shop-time";
import { kickJobWorker } from "~/core/jobs/worker.server";

export const meta: MetaFunction = () => [{ title: "Blocked numbers · COD Verify" }];

/** The merchant's phone blocklist: send-otp and create-checkout answer 403 phone_blocked to these numbers; their customers lose cod-verified-customer. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").slice(0, 100);
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1;
  const list = await listBlockedPhones(shop.id, { search, page });
  return {
    search,
    page: list.page,
    pages: list.pages,
    total: list.total,
    // Full numbers: the page masks them itself and posts them back to unblock.
    blocked: list.rows.map((r) => ({
      phone: r.phone,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
      blockedOn: shopDate(r.createdAt, shop.timezone),
      until: r.expiresAt ? shopDate(r.expiresAt, shop.timezone) : null,
    })),
  };
}

const reason = z
  .string()
  .trim()
  .max(BLOCKLIST_REASON_MAX)
  .optional()
  .transform((r) => r || null);

const ActionForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("block"),
    phone: z.string().max(64),
    reason,
    forDays: z.coerce
      .number()
      .int()
      .refine((d) => (BLOCK_PERIOD_DAYS as readonly number[]).includes(d))
      .optional(),
  }),
  z.object({ intent: z.literal("unblock"), phone: z.string().max(64) }),
  // About 5,000 lines of a number and a short reason; the server's body limit is 1 MiB.
  z.object({ intent: z.literal("import"), list: z.string().max(900_000), reason }),
]);

type ActionData =
  | { intent: "block"; ok: true; phone: string }
  | { intent: "block"; ok: false; error: string }
  | { intent: "unblock"; ok: boolean; phone: string }
  | { intent: "import"; ok: true; added: number; alreadyBlocked: number; duplicates: number; invalid: BlocklistImportProblem[] }
  | { intent: "import"; ok: false; error: string }
  | { intent: "invalid"; ok: false; error: string };

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const parsed = ActionForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<ActionData>({ intent: "invalid", ok: false, error: "That request could not be read. Reload the page and try again." }, { status: 400 });
  }
  const form = parsed.data;
  switch (form.intent) {
    case "block": {
      const result = await blockPhone(shop, form.phone, form.reason, { forDays: form.forDays });
      if (!result.ok) {
        return data<ActionData>(
          { intent: "block", ok: false, error: "Enter the number in international format: + (or 00), the country code and the number, e.g. +91 98123 45678." },
          { status: 422 },
        );
      }
      kickJobWorker();
      return { intent: "block", ok: true, phone: result.phone } satisfies ActionData;
    }
    case "unblock":
      return { intent: "unblock", ok: await unblockPhone(shop.id, form.phone), phone: form.phone } satisfies ActionData;
    case "import": {
      const result = await importBlockedPhones(shop, form.list, form.reason);
      if (!result.ok) {
        const error =
          result.code === "too_many_lines"
            ? `The list has ${result.lines.toLocaleString("en")} lines. Import at most ${BLOCKLIST_IMPORT_MAX_LINES.toLocaleString("en")} at a time; nothing was imported.`
            : "The list is empty. Paste numbers, one a line, or choose a file.";
        return data<ActionData>({ intent: "import", ok: false, error }, { status: 422 });
      }
      kickJobWorker();
      return { intent: "import", ...result } satisfies ActionData;
    }
  }
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** What the merchant is told about the last action: a toast in Shopify's admin, a banner elsewhere. */
function noticeOf(result: ActionData | undefined): Notice | null {
  if (!result) return null;
  switch (result.intent) {
    case "block":
      return result.ok ? { message: `${maskPhone(result.phone)} blocked` } : { message: "Number not blocked", error: true };
    case "unblock":
      return result.ok ? { message: `${maskPhone(result.phone)} unblocked` } : { message: "That number was not blocked", error: true };
    case "import":
      // The import card shows the full report (bad lines by number) beside the form.
      if (!result.ok) return { message: "Nothing imported", error: true, toastOnly: true };
      return {
        message: `${plural(result.added, "number", "numbers")} blocked${result.invalid.length ? `, ${plural(result.invalid.length, "line", "lines")} skipped` : ""}`,
        error: result.added === 0 && result.invalid.length > 0,
        toastOnly: true,
      };
    case "invalid":
      return { message: result.error, error: true };
  }
}

export default function Blocklist() {
  const { blocked, search, page, pages, total } = useLoaderData<typeof loader>();
  // Typed by hand: without the single-fetch type augmentation, `typeof action` does not unwrap data().
  const result = useActionData<ActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const notice = useNotice(noticeOf(result), result);

  return (
    <AdminPage title="Blocked numbers" subtitle="Numbers that never get a verification code. Shoppers using them cannot verify, so they cannot pay cash on delivery.">
      <Layout>
        {notice && <Layout.Section>{notice}</Layout.Section>}
        <Layout.AnnotatedSection title="Block a number" description="A number you do not want to verify: repeated refused deliveries, abuse, or a test number.">
          <BlockForm result={result?.intent === "block" ? result : undefined} busy={busy("block")} />
        </Layout.AnnotatedSection>
        <Layout.Section>
          <BlockedList blocked={blocked} search={search} page={page} pages={pages} total={total} unblocking={busy("unblock") ? String(navigation.formData?.get("phone")) : null} />
        </Layout.Section>
        <Layout.AnnotatedSection
          title="Import a list"
          description={`Paste numbers or choose a text or CSV file: one number a line, optionally followed by a comma and a reason. Up to ${BLOCKLIST_IMPORT_MAX_LINES.toLocaleString("en")} lines at a time.`}
        >
          <ImportForm result={result?.intent === "import" ? result : undefined} busy={busy("import")} />
        </Layout.AnnotatedSection>
      </Layout>
    </AdminPage>
  );
}

function BlockForm({ result, busy }: { result?: Extract<ActionData, { intent: "block" }>; busy: boolean }) {
  const [phone, setPhone] = useState("");
  const [reason, setReason] = useState("");
  const [forDays, setForDays] = useState("0");
  // A number that was blocked clears the form for the next one; a refused one stays to be corrected.
  const [cleared, setCleared] = useState<unknown>(null);
  if (result?.ok && cleared !== result) {
    setCleared(result);
    setPhone("");
    setReason("");
    setForDays("0");
  }
  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="intent" value="block" />
        <BlockStack gap="300">
          <TextField
            label="Phone number"
            name="phone"
            type="tel"
            value={phone}
            onChange={setPhone}
            autoComplete="off"
            placeholder="+91 98123 45678"
            helpText="International format: + (or 00), the country code and the number."
            error={result && !result.ok ? result.error : undefined}
          />
          <TextField label="Reason (optional)" name="reason" value={reason} onChange={setReason} autoComplete="off" maxLength={BLOCKLIST_REASON_MAX} />
          <Select
            label="Block for"
            name="forDays"
            options={BLOCK_PERIOD_DAYS.map((d) => ({ label: d === 0 ? "Until I unblock it" : d === 365 ? "1 year" : `${d} days`, value: String(d) }))}
            value={forDays}
            onChange={setForDays}
            helpText="A block with an end is removed from the list when it ends."
          />
          <InlineStack align="end">
            <Button submit variant="primary" loading={busy}>
              Block number
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

/** The largest file read into the list: well over 5,000 numbers with reasons, well under the server's body limit. */
const MAX_FILE_BYTES = 512 * 1024;

function ImportForm({ result, busy }: { result?: Extract<ActionData, { intent: "import" }>; busy: boolean }) {
  const [list, setList] = useState("");
  const [reason, setReason] = useState("");
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [cleared, setCleared] = useState<unknown>(null);
  if (result?.ok && cleared !== result) {
    setCleared(result);
    setList("");
    setFileName(null);
  }
  const lines = list.split(/\r\n|\r|\n/).filter((l) => l.trim()).length;

  const readFile = (_all: File[], accepted: File[], rejected: File[]) => {
    setFileProblem(null);
    const file = accepted[0];
    if (!file) {
      if (rejected.length) setFileProblem("Choose a .txt or .csv file.");
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setFileProblem(`That file is ${Math.ceil(file.size / 1024).toLocaleString("en")} KB; choose one under ${MAX_FILE_BYTES / 1024} KB (about ${BLOCKLIST_IMPORT_MAX_LINES.toLocaleString("en")} numbers).`);
      return;
    }
    file.text().then(
      (text) => {
        setList(text);
        setFileName(file.name);
      },
      () => setFileProblem("That file could not be read."),
    );
  };

  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="intent" value="import" />
        <BlockStack gap="300">
          {result && !result.ok && (
            <Banner tone="critical" title="Nothing imported">
              <p>{result.error}</p>
            </Banner>
          )}
          {result?.ok && <ImportReport result={result} />}
          <DropZone
            label="File"
            accept=".txt,.csv,text/plain,text/csv"
            type="file"
            allowMultiple={false}
            onDrop={readFile}
            error={Boolean(fileProblem)}
            variableHeight
          >
            <DropZone.FileUpload actionTitle="Choose a file" actionHint={fileName ? `Read ${fileName}` : "or drop a .txt or .csv file here"} />
          </DropZone>
          {fileProblem && (
            <Text as="p" tone="critical">
              {fileProblem}
            </Text>
          )}
          <TextField
            label="Numbers"
            name="list"
            value={list}
            onChange={setList}
            multiline={6}
            maxHeight={240}
            autoComplete="off"
            placeholder={"+919812345678, refused delivery\n+971501234567"}
            helpText={lines ? `${plural(lines, "line", "lines")}${lines > BLOCKLIST_IMPORT_MAX_LINES ? `: more than ${BLOCKLIST_IMPORT_MAX_LINES.toLocaleString("en")}, split the list` : ""}` : undefined}
          />
          <TextField
            label="Reason for lines without one (optional)"
            name="reason"
            value={reason}
            onChange={setReason}
            autoComplete="off"
            maxLength={BLOCKLIST_REASON_MAX}
          />
          <InlineStack align="end">
            <Button submit loading={busy} disabled={!lines}>
              Import numbers
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

function ImportReport({ result }: { result: Extract<ActionData, { intent: "import"; ok: true }> }) {
  const kept = [
    `${plural(result.added, "number", "numbers")} blocked`,
    ...(result.alreadyBlocked ? [`${result.alreadyBlocked.toLocaleString("en")} already blocked`] : []),
    ...(result.duplicates ? [`${plural(result.duplicates, "repeated line", "repeated lines")} counted once`] : []),
  ];
  const shown = result.invalid.slice(0, 20);
  return (
    <Banner tone={result.invalid.length ? "warning" : "success"} title={kept.join(", ")}>
      {result.invalid.length > 0 && (
        <BlockStack gap="200">
          <p>
            {plural(result.invalid.length, "line was", "lines were")} not an international number and {result.invalid.length === 1 ? "was" : "were"} skipped; the
            others were kept.
          </p>
          <List>
            {shown.map((p) => (
              <List.Item key={p.line}>
                Line {p.line}: {p.text}
              </List.Item>
            ))}
          </List>
          {result.invalid.length > shown.length && <p>and {plural(result.invalid.length - shown.length, "more line", "more lines")}.</p>}
        </BlockStack>
      )}
    </Banner>
  );
}

type Blocked = {
  phone: string;
  reason: string | null;
  createdAt: string;
  /** The day it was blocked, in the store's time zone. */
  blockedOn: string;
  /** The day the block ends (null: until the merchant unblocks it), in the store's time zone. */
  until: string | null;
};

function BlockedList(props: { blocked: Blocked[]; search: string; page: number; pages: number; total: number; unblocking: string | null }) {
  const { blocked, page, pages, total } = props;
  const [params] = useSearchParams();
  const [search, setSearch] = useState(props.search);
  const pageUrl = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };
  return (
    <Card padding="0">
      <BlockStack gap="0">
        <div style={{ padding: "var(--p-space-400)" }}>
          <Form method="get" role="search">
            <InlineStack gap="200" blockAlign="end" wrap={false}>
              <div style={{ flex: 1 }}>
                <TextField
                  label="Search blocked numbers"
                  name="q"
                  value={search}
                  onChange={setSearch}
                  autoComplete="off"
                  placeholder="Digits of a number, or a word of the reason"
                  clearButton
                  onClearButtonClick={() => setSearch("")}
                />
              </div>
              <Button submit>Search</Button>
            </InlineStack>
          </Form>
        </div>
        {blocked.length === 0 ? (
          props.search ? (
            <div style={{ padding: "var(--p-space-400)" }}>
              <Text as="p">No blocked number matches “{props.search}”.</Text>
            </div>
          ) : (
            <TableEmpty title="No blocked numbers" text="Numbers you block or import here never get a verification code." />
          )
        ) : (
          <IndexTable
            resourceName={{ singular: "blocked number", plural: "blocked numbers" }}
            itemCount={blocked.length}
            selectable={false}
            headings={[{ title: "Number" }, { title: "Reason" }, { title: "Blocked on" }, { title: "Until" }, { title: "Action", hidden: true }]}
          >
            {blocked.map((b, i) => (
              <IndexTable.Row id={b.phone} key={b.phone} position={i}>
                <IndexTable.Cell>
                  <Text as="span" fontWeight="medium">
                    <bdi dir="ltr">{maskPhone(b.phone)}</bdi>
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" tone={b.reason ? undefined : "subdued"}>
                    {b.reason ?? "No reason given"}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>{b.blockedOn}</IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" tone={b.until ? undefined : "subdued"}>
                    {b.until ?? "Until unblocked"}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Form method="post">
                    <input type="hidden" name="intent" value="unblock" />
                    <input type="hidden" name="phone" value={b.phone} />
                    <Button submit size="slim" loading={props.unblocking === b.phone} accessibilityLabel={`Unblock ${maskPhone(b.phone)}`}>
                      Unblock
                    </Button>
                  </Form>
                </IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        )}
        <TableFooter
          count={props.search ? plural(total, "match", "matches") : plural(total, "blocked number", "blocked numbers")}
          page={page}
          pages={pages}
          pageUrl={pageUrl}
        />
      </BlockStack>
    </Card>
  );
}
