import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { authenticate } from "~/core/shopify/app.server";
import { loadSettingsPage, saveSettings, type SettingsSaved } from "~/admin/settings/settings-page.server";
import { SettingsForm } from "~/admin/settings/settings-form";
import { ExperimentCard } from "~/experiment/experiment-card";
import { experimentAction, loadExperimentSettings, type ExperimentActionResult } from "~/experiment/settings-page.server";
import { prepaidOfferSummary } from "~/orders/prepaid-offer.server";

export const meta: MetaFunction = () => [{ title: "Settings · COD Verify" }];

/** The merchant's settings: one-time codes, checkout, order tags, address correction, language. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const [page, experiment] = await Promise.all([loadSettingsPage(session.shop), loadExperimentSettings(session.shop)]);
  return { ...page, experiment, prepaidOffer: await prepaidOfferSummary(page.shopId) };
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  // The holdout experiment's card posts its own forms (app/experiment).
  if (String(form.get("intent") ?? "").startsWith("experiment-")) {
    const answer = await experimentAction(session.shop, form);
    return data<ExperimentActionResult>(answer, { status: answer.ok ? 200 : 422 });
  }
  const answer = await saveSettings(session.shop, form);
  return answer.status === "invalid" ? data<SettingsSaved>(answer, { status: 422 }) : answer;
}

export default function Settings() {
  const loaded = useLoaderData<typeof loader>();
  // Typed by hand: without the single-fetch type augmentation, `typeof action` does not unwrap data().
  const answer = useActionData<SettingsSaved | ExperimentActionResult>();
  const experimentResult = answer && "intent" in answer ? answer : null;
  const result = answer && !("intent" in answer) ? answer : undefined;
  // A save remounts the form with what was stored; a refused one keeps what the merchant typed.
  const key = result?.status === "saved" ? result.savedAt : "loaded";
  return (
    <SettingsForm
      key={key}
      initial={result?.values ?? loaded.values}
      errors={result?.errors ?? {}}
      saved={result?.status === "saved"}
      currency={loaded.currency}
      timezone={loaded.timezone}
      enforcement={result?.status === "saved" ? result.enforcement : loaded.enforcement}
      depositPattern={loaded.depositPattern}
      countries={loaded.countries}
      prepaidOffer={loaded.prepaidOffer}
    >
      <ExperimentCard key={`${loaded.experiment.running}-${loaded.experiment.startedAt}`} settings={loaded.experiment} result={experimentResult} />
    </SettingsForm>
  );
}
