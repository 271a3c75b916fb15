import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { directionOf, type Locale } from "./locales";

/**
 * The shell of the pages the app hosts under the app proxy for a shopper who followed a texted link
 * (the address correction, the order confirmation): React rendered to static HTML (no client script,
 * no hydration), inline CSS, no external font or image, so a page is small and works on any phone.
 * The document's language and direction come from the page's locale. React escapes every value.
 */
export type PageShell = { locale: Locale; shopName: string };

/** A hosted page's POST as the edge read it: the form's fields, or why it was refused unread. */
export type PostedForm = { ok: true; fields: URLSearchParams } | { ok: false; refused: "bad_form" | "form_too_large" };

const BASE_CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1a1a1a;background:#f6f6f7}
main{max-width:34rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;line-height:1.25;margin:.5rem 0 .75rem}
p{margin:.5rem 0 1rem}.shop{color:#555;font-size:.9rem;margin:0}
.card{background:#fff;border-radius:12px;padding:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.field{margin:0 0 1rem}label{display:block;font-weight:600;margin:0 0 .25rem}
.hint{display:block;color:#555;font-size:.875rem;margin:0 0 .25rem}
input,select{width:100%;font:inherit;padding:.7rem .75rem;border:1px solid #8a8a8a;border-radius:8px;background:#fff;color:inherit;min-height:48px}
input:focus,select:focus{outline:3px solid #005bd3;outline-offset:1px}
[aria-invalid=true]{border:2px solid #c5280c}
.summary{border:2px solid #c5280c;border-radius:8px;padding:.75rem 1rem;background:#fff4f2;margin:0 0 1rem}
button{width:100%;font:inherit;font-weight:600;padding:.85rem;border:0;border-radius:8px;background:#1a1a1a;color:#fff;min-height:48px;cursor:pointer}
button:focus{outline:3px solid #005bd3;outline-offset:2px}`;

/**
 * A template's text with each `{value}` isolated and left to right (`<bdi dir="ltr">`): the values are
 * order names and phone numbers, which read "#1001" and "+9665•••4567" in every language. A bare
 * `<bdi>` takes the page's direction for text without letters, so Arabic showed "1001#".
 */
export function Filled({ template, values }: { template: string; values: Record<string, string> }) {
  return (
    <>
      {template.split(/(\{\w+\})/).map((part, i) => {
        const m = /^\{(\w+)\}$/.exec(part);
        return m && m[1] in values ? <bdi key={i} dir="ltr">{values[m[1]]}</bdi> : part;
      })}
    </>
  );
}

/** A sentence above a page's form that the shopper must read first (a refusal, a failure); nothing without one. */
export function Alert({ text }: { text: string | undefined }) {
  return text ? (
    <div className="summary" role="alert">
      <strong>{text}</strong>
    </div>
  ) : null;
}

/**
 * A page with a heading and a sentence about the order: a success the shopper is told of ("status") or
 * a refusal or failure ("alert"); `after` adds to the card (e.g. the address as saved).
 */
export function renderMessagePage(
  shell: PageShell,
  m: { title: string; body: string; orderName: string; success: boolean; after?: ReactNode; backToStore?: string },
  css = "",
): string {
  return renderHostedPage(
    shell,
    m.title,
    <div className="card" role={m.success ? "status" : "alert"}>
      <h1>{m.title}</h1>
      <p>
        <Filled template={m.body} values={{ order: m.orderName }} />
      </p>
      {m.after ?? null}
      {m.backToStore ? (
        // Served through the store's app proxy (https://<shop>/apps/...): "/" is the store's home page.
        <p>
          <a href="/">{m.backToStore}</a>
        </p>
      ) : null}
    </div>,
    css,
  );
}

/** The whole document: the shop's name above the page's body. `css` adds the page's own rules to the shared ones. */
export function renderHostedPage(shell: PageShell, title: string, body: ReactNode, css = ""): string {
  return `<!doctype html>\n${renderToStaticMarkup(
    <html lang={shell.locale} dir={directionOf(shell.locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex,nofollow" />
        <title>{`${title} · ${shell.shopName}`}</title>
        {/* Constants of the code, not data: React would escape the `>` of their selectors. */}
        <style dangerouslySetInnerHTML={{ __html: css ? `${BASE_CSS}\n${css}` : BASE_CSS }} />
      </head>
      <body>
        <main>
          <p className="shop">{shell.shopName}</p>
          {body}
        </main>
      </body>
    </html>,
  )}`;
}
