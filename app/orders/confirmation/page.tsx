import { Alert, Filled, renderHostedPage, renderMessagePage, type PageShell } from "~/shared/hosted-page";
import { fill } from "~/shared/locales";
import { CODE_LENGTH } from "~/shared/otp-code";
import { DISPUTE_TEXTS } from "./dispute-texts";
import { PAGE_TEXTS } from "./texts";

/**
 * The hosted confirmation page (GET/POST /proxy/vc/:token), in the shell every hosted page shares
 * (app/shared/hosted-page.tsx): in the shopper's language, right to left where it is written so.
 */
export type { PageShell };

const CSS = `.secondary{background:#fff;color:#1a1a1a;border:1px solid #8a8a8a;margin-top:.75rem}
.order{margin:0 0 1rem;padding:.75rem 1rem;border:1px solid #e3e3e3;border-radius:.5rem}
.order h2{margin:0 0 .5rem;font-size:1rem}.order dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
.order dt{color:#5c5c5c}.order dd{margin:0}
.not-mine{margin-top:1.5rem;padding-top:1rem;border-top:1px solid #e3e3e3}
.not-mine button{background:none;color:#8e1f0b;border:0;text-decoration:underline;min-height:44px;padding:.5rem 0;width:auto}
.danger{background:#8e1f0b}.notice{background:#eef6ee;border-radius:8px;padding:.75rem 1rem}`;

/** What the stored order record says about the order, for the shopper to recognise it. */
export type OrderSummary = { orderName: string; placedAt: Date | null; payment: "cod" | "partial" | null };

export type ConfirmPageState = {
  orderName: string;
  maskedPhone: string;
  nonce: string;
  /** "start": a button that texts the code; "code": the code field; "ask_not_mine": "I did not place this order" asked again before it is sent. */
  step: "start" | "code" | "ask_not_mine";
  alert?: string;
  /** A sentence of what just happened that is no error (an undone dispute). */
  notice?: string;
  summary: OrderSummary;
};

function Summary({ locale, summary }: { locale: PageShell["locale"]; summary: OrderSummary }) {
  const t = PAGE_TEXTS[locale];
  const placed = summary.placedAt ? new Intl.DateTimeFormat(locale, { dateStyle: "long" }).format(summary.placedAt) : null;
  return (
    <section className="order" aria-labelledby="order-title">
      <h2 id="order-title">{t.summaryTitle}</h2>
      <dl>
        <dt>{t.summaryOrder}</dt>
        <dd>
          <bdi dir="ltr">{summary.orderName}</bdi>
        </dd>
        {placed ? (
          <>
            <dt>{t.summaryPlaced}</dt>
            <dd>{placed}</dd>
          </>
        ) : null}
        {summary.payment ? (
          <>
            <dt>{t.summaryPayment}</dt>
            <dd>{summary.payment === "partial" ? t.paymentPartial : t.paymentCod}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** "I did not place this order": asked again first (AskNotMine), reported to the merchant, never a cancellation by itself. */
function NotMine({ nonce, label }: { nonce: string; label: string }) {
  return (
    <form method="post" className="not-mine">
      <input type="hidden" name="nonce" value={nonce} />
      <input type="hidden" name="intent" value="not_mine_ask" />
      <button type="submit">{label}</button>
    </form>
  );
}

/** A form of one button posting `intent`. */
function IntentForm({ nonce, intent, label, className }: { nonce: string; intent: string; label: string; className?: string }) {
  return (
    <form method="post">
      <input type="hidden" name="nonce" value={nonce} />
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={className}>
        {label}
      </button>
    </form>
  );
}

/** The second, explicit step: what telling the shop means, then "Yes" (sent) or "No" (back to the order). */
function renderAskNotMine(shell: PageShell, s: ConfirmPageState): string {
  const d = DISPUTE_TEXTS[shell.locale];
  return renderHostedPage(
    shell,
    d.askTitle,
    <div className="card">
      <h1>{d.askTitle}</h1>
      <Summary locale={shell.locale} summary={s.summary} />
      <p>
        <Filled template={d.askBody} values={{ order: s.orderName }} />
      </p>
      <IntentForm nonce={s.nonce} intent="not_mine" label={d.askYes} className="danger" />
      <IntentForm nonce={s.nonce} intent="back" label={d.askNo} className="secondary" />
    </div>,
    CSS,
  );
}

export function renderConfirmPage(shell: PageShell, s: ConfirmPageState): string {
  if (s.step === "ask_not_mine") return renderAskNotMine(shell, s);
  const t = PAGE_TEXTS[shell.locale];
  // A number reads left to right in every language.
  const values = { order: s.orderName, phone: s.maskedPhone };
  return renderHostedPage(
    shell,
    t.title,
    <div className="card">
      <h1>{t.title}</h1>
      <Summary locale={shell.locale} summary={s.summary} />
      <p>
        <Filled template={t.intro} values={values} />
      </p>
      <Alert text={s.alert} />
      {s.notice ? (
        <p className="notice" role="status">
          {s.notice}
        </p>
      ) : null}
      {s.step === "code" ? (
        <>
          <form method="post" noValidate>
            <input type="hidden" name="nonce" value={s.nonce} />
            <input type="hidden" name="intent" value="confirm" />
            <div className="field">
              <label htmlFor="code">{fill(t.codeLabel, { length: String(CODE_LENGTH) })}</label>
              <span className="hint" id="code-hint">
                <Filled template={t.codeHint} values={values} />
              </span>
              <input
                id="code"
                name="code"
                dir="ltr"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                maxLength={6}
                aria-describedby="code-hint"
                aria-invalid={s.alert ? true : undefined}
                required
              />
            </div>
            <button type="submit">{t.confirm}</button>
          </form>
          <IntentForm nonce={s.nonce} intent="send" label={t.resend} className="secondary" />
        </>
      ) : (
        <IntentForm nonce={s.nonce} intent="send" label={t.send} />
      )}
      <NotMine nonce={s.nonce} label={t.notMine} />
    </div>,
    CSS,
  );
}

export type ConfirmMessage = "confirmed" | "closed" | "cancelled" | "notFound" | "forbidden" | "unavailable" | "disputed";

export function renderConfirmMessage(shell: PageShell, kind: ConfirmMessage, orderName = ""): string {
  const t = PAGE_TEXTS[shell.locale];
  return renderMessagePage(shell, { title: t[`${kind}Title`], body: t[`${kind}Body`], orderName, success: kind === "confirmed" }, CSS);
}

/** "I did not place this order" sent, the shop not told yet: thanks, and the undo while its window is open. */
export type DisputedState = { orderName: string; nonce: string; minutesLeft: number };

export function renderDisputed(shell: PageShell, s: DisputedState): string {
  const d = DISPUTE_TEXTS[shell.locale];
  const undo = <IntentForm nonce={s.nonce} intent="not_mine_undo" label={d.undo} className="secondary" />;
  return renderMessagePage(
    shell,
    { title: d.pendingTitle, body: fill(d.pendingBody, { minutes: String(s.minutesLeft) }), orderName: s.orderName, success: true, after: undo },
    CSS,
  );
}

/** What the hosted confirmation page shows (app/orders/confirmation/confirm-page.server.ts decides which). */
export type ConfirmView =
  | { kind: "page"; state: ConfirmPageState }
  | { kind: "disputed"; state: DisputedState }
  | { kind: "message"; message: ConfirmMessage; orderName?: string };

export function renderConfirmView(shell: PageShell, view: ConfirmView): string {
  if (view.kind === "page") return renderConfirmPage(shell, view.state);
  if (view.kind === "disputed") return renderDisputed(shell, view.state);
  return renderConfirmMessage(shell, view.message, view.orderName);
}
