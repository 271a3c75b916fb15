import type { PageShell } from "~/address-correction/page";
import { directionOf } from "~/shared/locales";
import { PAGE } from "./texts";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1a1a1a;background:#f6f6f7}
main{max-width:34rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;line-height:1.25;margin:.5rem 0 .75rem}p{margin:.5rem 0 1rem}.shop{color:#555;font-size:.9rem;margin:0}
.card{background:#fff;border-radius:12px;padding:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}.field{margin:0 0 1rem}label{display:block;font-weight:600;margin:0 0 .25rem}
.hint{display:block;color:#555;font-size:.875rem;margin:0 0 .25rem}input{width:100%;font:inherit;padding:.7rem .75rem;border:1px solid #8a8a8a;border-radius:8px;min-height:48px}
input:focus{outline:3px solid #005bd3;outline-offset:1px}[aria-invalid=true]{border:2px solid #c5280c}
.summary{border:2px solid #c5280c;border-radius:8px;padding:.75rem 1rem;background:#fff4f2;margin:0 0 1rem}
button{width:100%;font:inherit;font-weight:600;padding:.85rem;border:0;border-radius:8px;background:#1a1a1a;color:#fff;min-height:48px;cursor:pointer}button:focus{outline:3px solid #005bd3;outline-offset:2px}`;

function layout(shell: PageShell, title: string, body: string): string {
  return `<!doctype html>
<html lang="${shell.locale}" dir="${directionOf(shell.locale)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<title>${escapeHtml(title)} · ${escapeHtml(shell.shopName)}</title>
<style>${CSS}</style></head>
<body><main>
<p class="shop">${escapeHtml(shell.shopName)}</p>
${body}
</main></body></html>`;
}

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
