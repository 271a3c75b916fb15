import { Button } from "@shopify/polaris";
import { useState } from "react";

/**
 * A button that fetches a file through the app's own fetch (in Shopify's admin, App Bridge adds the
 * session token; a plain link would not carry it) and saves it under the name the answer gives.
 */
export function FileDownloadButton(props: { url: string; fallbackName: string; label: string; text: string; size?: "slim"; primary?: boolean }) {
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  const download = async () => {
    setState("busy");
    try {
      const response = await fetch(props.url);
      if (!response.ok) throw new Error(String(response.status));
      const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? props.fallbackName;
      const href = URL.createObjectURL(await response.blob());
      const a = document.createElement("a");
      a.href = href;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setState("idle");
    } catch {
      setState("failed");
    }
  };
  return (
    <Button onClick={download} loading={state === "busy"} size={props.size} variant={props.primary ? "primary" : undefined} accessibilityLabel={props.label} tone={state === "failed" ? "critical" : undefined}>
      {state === "failed" ? "Download failed, retry" : props.text}
    </Button>
  );
}
