import { escapeHtml, layout, type PageShell } from "~/address-correction/page";
import { PAGE } from "./texts";

/**
 * The hosted confirmation page (GET/POST /proxy/vc/:token): plain, self-contained HTML like the
 * address form (inline CSS, no script), every value escaped.
 */
export type { PageShell };

function fillHtml(template: string, values: Record<string, string>): string {
  return template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      return m && m[1] in values ? `<bdi>${escapeHtml(values[m[1]])}</bdi>` : escapeHtml(part);
    })
    .join("");
}

export type ConfirmPageState = {
  orderName: string;
  maskedPhone: string;
  nonce: string;
  /** "start": a button that texts the code; "code": the code field. */
  step: "start" | "code";
  alert?: string;
};

export function renderConfirmPage(shell: PageShell, s: ConfirmPageState): string {
  const values = { order: s.orderName, phone: s.maskedPhone };
  const alert = s.alert ? `<div class="summary" role="alert"><p>${escapeHtml(s.alert)}</p></div>` : "";
  const nonce = `<input type="hidden" name="nonce" value="${escapeHtml(s.nonce)}">`;
  const sendForm = (label: string, secondary: boolean) =>
    `<form method="post">${nonce}<input type="hidden" name="intent" value="send"><button type="submit"${secondary ? ' style="background:#fff;color:#1a1a1a;border:1px solid #8a8a8a;margin-top:.75rem"' : ""}>${escapeHtml(label)}</button></form>`;
  const codeForm =
    s.step === "code"
      ? `<form method="post" novalidate>${nonce}<input type="hidden" name="intent" value="confirm">
<div class="field"><label for="code">${escapeHtml(PAGE.codeLabel)}</label><span class="hint" id="code-hint">${fillHtml(PAGE.codeHint, values)}</span>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" aria-describedby="code-hint"${s.alert ? ' aria-invalid="true"' : ""} required></div>
<button type="submit">${escapeHtml(PAGE.confirm)}</button></form>${sendForm(PAGE.resend, true)}`
      : sendForm(PAGE.send, false);
  return layout(shell, PAGE.title, `<div class="card"><h1>${escapeHtml(PAGE.title)}</h1><p>${fillHtml(PAGE.intro, values)}</p>${alert}${codeForm}</div>`);
}

export type ConfirmMessage = "confirmed" | "closed" | "notFound" | "forbidden";

export function renderConfirmMessage(shell: PageShell, kind: ConfirmMessage, orderName = ""): string {
  const title = PAGE[`${kind}Title`];
  const body = fillHtml(PAGE[`${kind}Body`], { order: orderName });
  return layout(shell, title, `<div class="card" role="${kind === "confirmed" ? "status" : "alert"}"><h1>${escapeHtml(title)}</h1><p>${body}</p></div>`);
}
