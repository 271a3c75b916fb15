import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { authenticate } from "~/core/shopify/app.server";
import { loadSettingsPage, saveSettings, type SettingsSaved } from "~/admin/settings/settings-page.server";
import { SettingsForm } from "~/admin/settings/settings-form";

export const meta: MetaFunction = () => [{ title: "Settings · COD Verify" }];

/** The merchant's settings: one-time codes, checkout, order tags, address correction, language. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  return loadSettingsPage(session.shop);
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const answer = await saveSettings(session.shop, await request.formData());
  return answer.status === "invalid" ? data<SettingsSaved>(answer, { status: 422 }) : answer;
}

export default function Settings() {
  const loaded = useLoaderData<typeof loader>();
  // Typed by hand: without the single-fetch type augmentation, `typeof action` does not unwrap data().
  const result = useActionData<SettingsSaved>();
  // A save remounts the form with what was stored; a refused one keeps what the merchant typed.
  const key = result?.status === "saved" ? result.savedAt : "loaded";
  return (
    <SettingsForm
      key={key}
      initial={result?.values ?? loaded.values}
      errors={result?.errors ?? {}}
      saved={result?.status === "saved"}
      currency={loaded.currency}
      enforcement={result?.status === "saved" ? result.enforcement : loaded.enforcement}
      depositPattern={loaded.depositPattern}
      countries={loaded.countries}
      prepaidOffer={loaded.prepaidOffer}
    />
  );
}
