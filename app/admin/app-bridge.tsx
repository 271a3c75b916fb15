import { TitleBar } from "@shopify/app-bridge-react";
import { Banner, Page, type PageProps } from "@shopify/polaris";
import { VerificationBanner } from "./verification-banner";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";

/**
 * App Bridge in the admin's pages, and what stands in for it when its script cannot load (outside
 * Shopify's admin, in local mode, or when Shopify's CDN is out of reach): App Bridge draws the title bar,
 * the navigation menu, the save bar and toasts in Shopify's own frame; without it, the same things are
 * drawn in the page with Polaris. Inside Shopify's admin nobody knows which until the page has hydrated,
 * so nothing is drawn twice.
 */
export type AppBridgeState = "unknown" | "present" | "absent";

const AppBridgeContext = createContext<AppBridgeState>("unknown");

/**
 * `expected`: the document was asked for by Shopify's admin (`embedded=1`), where App Bridge is about to
 * load; elsewhere the fallbacks are drawn from the first render, with no flash.
 */
export function AppBridgeStateProvider({ expected, children }: { expected: boolean; children: ReactNode }) {
  const [state, setState] = useState<AppBridgeState>(expected ? "unknown" : "absent");
  useEffect(() => setState(typeof window !== "undefined" && window.shopify?.toast ? "present" : "absent"), []);
  return <AppBridgeContext.Provider value={state}>{children}</AppBridgeContext.Provider>;
}

export function useAppBridgeState(): AppBridgeState {
  return useContext(AppBridgeContext);
}

type AdminPageProps = Omit<PageProps, "title"> & { title: string };

/** A Polaris page whose title is App Bridge's title bar in Shopify's admin, and the page's own heading elsewhere. */
export function AdminPage({ title, children, ...props }: AdminPageProps) {
  const appBridge = useAppBridgeState();
  return (
    <Page {...props} title={appBridge === "present" ? undefined : title}>
      <TitleBar title={title} />
      <VerificationBanner />
      {children}
    </Page>
  );
}

/** `toastOnly`: the page already shows the answer where the merchant acted, so no banner stands in for the toast. */
export type Notice = { message: string; error?: boolean; toastOnly?: boolean };

/**
 * Tells the merchant how an action went: App Bridge's toast in Shopify's admin, a Polaris banner at the
 * top of the page elsewhere (a live region: announced to screen readers). Returns the banner to render (null when the
 * toast showed it).
 */
export function useNotice(notice: Notice | null | undefined, key: unknown): ReactNode {
  const appBridge = useAppBridgeState();
  const [dismissed, setDismissed] = useState<unknown>(null);
  // Each new answer (key) is told once, however often the page renders.
  const told = useRef<unknown>(null);
  useEffect(() => {
    if (!notice || appBridge !== "present" || told.current === key) return;
    told.current = key;
    window.shopify.toast.show(notice.message, { isError: notice.error ?? false });
  }, [notice, key, appBridge]);
  const dismiss = useCallback(() => setDismissed(key), [key]);
  // Drawn unless App Bridge showed it, so a form posted with no JavaScript gets its answer too.
  if (!notice || notice.toastOnly || appBridge === "present" || dismissed === key) return null;
  // Polaris' banner is itself the live region (role status, or alert for an error).
  return (
    <Banner tone={notice.error ? "critical" : "success"} onDismiss={dismiss}>
      {notice.message}
    </Banner>
  );
}
