import type { ReactNode } from "react";
import { Alert, Filled, renderHostedPage, renderMessagePage, type PageShell } from "~/shared/hosted-page";
import type { RecoveryOrderSummary } from "./order-summary.server";
import { RECOVERY_TEXTS, type RecoveryTexts } from "./texts";
import { LOCATION_CSS } from "~/shared/location-field";
import { LocationChoice, type LocationChoiceState } from "./location-choice";

/**
 * The hosted failed-delivery page (GET/POST /proxy/dr/:token), in the shell every hosted page shares:
 * one form per choice (each posts its own `choice`), so the page works without any script.
 */
const CSS = `.choice{margin:0 0 .75rem}.choice .field{margin:.5rem 0}
.order{margin:0 0 1rem;padding:.75rem;border:1px solid #d4d4d4;border-radius:8px;background:#fafafa}.order dt{font-weight:600;margin-top:.5rem}.order dt:first-child{margin-top:0}
.order dd{margin:.15rem 0 0}.order ul{margin:0;padding-inline-start:1.1rem}.hint{color:#4a4a4a;font-size:.9rem;margin:.25rem 0 0}
.secondary{background:#fff;color:#1a1a1a;border:1px solid #8a8a8a}
.link{display:block;text-align:center;font-weight:600;padding:.85rem;border-radius:8px;background:#1a1a1a;color:#fff;text-decoration:none;margin-top:.75rem}
${LOCATION_CSS}`;

export type RecoveryPageState = {
  orderName: string;
  nonce: string;
  /** The first and last day the shopper may pick (YYYY-MM-DD, shop time). */
  minDay: string;
  maxDay: string;
  alert?: string;
  /** What the shopper typed, shown again with the alert. */
  day?: string;
  phone?: string;
  /** The order as the shopper knows it; parts Shopify could not give are left out. */
  summary?: RecoveryOrderSummary;
  /** "Where you are": the DIGIPIN typed or found, and whether it went to the order (location-choice.tsx). */
  location?: LocationChoiceState;
};

function OrderSummary({ t, s }: { t: RecoveryTexts; s: RecoveryOrderSummary | undefined }) {
  if (!s || (!s.items.length && !s.amount && !s.address && !s.phone)) return null;
  return (
    <dl className="order">
      {s.items.length > 0 && (
        <>
          <dt>{t.itemsLabel}</dt>
          <dd>
            <ul>
              {s.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {s.amount && (
        <>
          <dt>{t.amountLabel}</dt>
          <dd>
            <bdi>{s.amount}</bdi>
          </dd>
        </>
      )}
      {s.address && (
        <>
          <dt>{t.addressLabel}</dt>
          <dd>
            {s.address.map((line, i) => (
              <div key={i}>{line}</div>
            ))}
          </dd>
        </>
      )}
      {s.phone && (
        <>
          <dt>{t.currentPhoneLabel}</dt>
          <dd>
            <bdi dir="ltr">{s.phone}</bdi>
          </dd>
        </>
      )}
    </dl>
  );
}

function Choice({ nonce, choice, label, secondary, children }: { nonce: string; choice: string; label: string; secondary?: boolean; children?: ReactNode }) {
  return (
    <form method="post" className="choice" noValidate>
      <input type="hidden" name="nonce" value={nonce} />
      <input type="hidden" name="choice" value={choice} />
      {children}
      <button type="submit" className={secondary ? "secondary" : undefined}>
        {label}
      </button>
    </form>
  );
}

export function renderRecoveryPage(shell: PageShell, s: RecoveryPageState): string {
  const t = RECOVERY_TEXTS[shell.locale];
  return renderHostedPage(
    shell,
    t.title,
    <div className="card">
      <h1>{t.title}</h1>
      <p>
        <Filled template={t.intro} values={{ order: s.orderName }} />
      </p>
      <OrderSummary t={t} s={s.summary} />
      <Alert text={s.alert} />
      <Choice nonce={s.nonce} choice="tomorrow" label={t.tomorrow} />
      <Choice nonce={s.nonce} choice="pick_day" label={t.pickDay} secondary>
        <div className="field">
          <label htmlFor="day">{t.dayLabel}</label>
          <input id="day" name="day" type="date" min={s.minDay} max={s.maxDay} defaultValue={s.day ?? s.minDay} required />
        </div>
      </Choice>
      <Choice nonce={s.nonce} choice="fix_address" label={t.fixAddress} secondary />
      <Choice nonce={s.nonce} choice="fix_phone" label={t.fixPhone} secondary>
        <div className="field">
          <label htmlFor="phone">{t.phoneLabel}</label>
          <input id="phone" name="phone" type="tel" dir="ltr" autoComplete="tel" defaultValue={s.phone ?? s.summary?.phonePrefix ?? ""} aria-describedby={s.summary?.phone ? "phone-hint" : undefined} required />
          {s.summary?.phone && (
            <p className="hint" id="phone-hint">
              <Filled template={t.phoneHint} values={{ phone: s.summary.phone }} />
            </p>
          )}
        </div>
      </Choice>
      <Choice nonce={s.nonce} choice="pay_online" label={t.payOnline} secondary />
      <LocationChoice locale={shell.locale} nonce={s.nonce} state={s.location} />
    </div>,
    CSS,
  );
}

export type RecoveryMessage = "done" | "answered" | "gone" | "notFound" | "forbidden" | "unavailable";
export type DoneKind = "tomorrow" | "pickDay" | "phone" | "payOnline" | "address" | "addressByShop";

export function renderRecoveryMessage(
  shell: PageShell,
  kind: RecoveryMessage,
  m: { orderName?: string; done?: DoneKind; date?: string; link?: { href: string; label: string } } = {},
): string {
  const t = RECOVERY_TEXTS[shell.locale];
  const body =
    kind === "done"
      ? { tomorrow: t.doneTomorrow, pickDay: t.donePickDay, phone: t.donePhone, payOnline: t.donePayOnline, address: t.doneAddress, addressByShop: t.doneAddressByShop }[m.done ?? "tomorrow"].replace("{date}", m.date ?? "")
      : t[`${kind}Body`];
  const title = kind === "done" ? t.doneTitle : t[`${kind}Title`];
  const after = m.link ? (
    <a className="link" href={m.link.href}>
      {m.link.label}
    </a>
  ) : undefined;
  return renderMessagePage(shell, { title, body, orderName: m.orderName ?? "", success: kind === "done", after }, CSS);
}

export type RecoveryView =
  | { kind: "page"; state: RecoveryPageState }
  | { kind: "message"; message: RecoveryMessage; orderName?: string; done?: DoneKind; date?: string; link?: { href: string; label: string } };

export function renderRecoveryView(shell: PageShell, view: RecoveryView): string {
  return view.kind === "page" ? renderRecoveryPage(shell, view.state) : renderRecoveryMessage(shell, view.message, view);
}
