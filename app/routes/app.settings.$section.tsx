import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Layout } from "@shopify/polaris";
import { AdminPage } from "~/admin/app-bridge";
import { saveSettingsSection, type SectionSaved } from "~/admin/settings/save-section.server";
import { SettingsSectionForm } from "~/admin/settings/section-form";
import { SectionCards, type SectionFigures } from "~/admin/settings/section-page";
import { isSettingsSection, sectionTitle, type SettingsSectionId } from "~/core/settings/registry";
import { PHONE_COUNTRY_NAMES } from "~/core/settings/schema/special";
import { settingsFormValues } from "~/core/settings/settings";
import { getShop, upsertInstalledShop } from "~/core/settings/shop.server";
import { authenticate } from "~/core/shopify/app.server";
import { codOrdersLately } from "~/dashboard/cod-orders.server";
import { currentEnforcementState } from "~/enforcement/payment-customization.server";
import { ExperimentCard } from "~/experiment/experiment-card";
import { experimentAction, loadExperimentSettings, type ExperimentActionResult } from "~/experiment/settings-page.server";
import { prepaidOfferSummary } from "~/orders/prepaid-offer.server";
import { depositPattern } from "~/storefront/offer";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? sectionTitle(data.section) : "Settings"} · Settings · COD Verify` }];

function sectionOf(params: LoaderFunctionArgs["params"]): SettingsSectionId {
  if (!isSettingsSection(params.section)) throw new Response("No such settings section", { status: 404 });
  return params.section;
}

/**
 * One section of the settings: its stored values and only the figures its cards show, gathered here
 * from the features that own them (the checkout's enforcement, the pay-now offer, the experiment).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const section = sectionOf(params);
  const shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  const figures: SectionFigures = {
    currency: shop.currency,
    // The quiet hours are in it (learnt from Shopify; null until it is known: UTC).
    timezone: shop.timezone,
    countries: section === "codes" ? PHONE_COUNTRY_NAMES : [],
    depositPattern: depositPattern(shop),
    enforcement: section === "enforcement" ? await currentEnforcementState(shop) : null,
    prepaidOffer: section === "pay-now" ? await prepaidOfferSummary(shop.id) : null,
  };
  return {
    section,
    values: settingsFormValues(shop),
    figures,
    experiment: section === "experiment" ? await loadExperimentSettings(session.shop, codOrdersLately) : null,
  };
}

/** A section's form saves that section's fields only; the experiment's page starts or stops it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const section = sectionOf(params);
  const form = await request.formData();
  if (section === "experiment") {
    const answer = await experimentAction(session.shop, form);
    return data<ExperimentActionResult>(answer, { status: answer.ok ? 200 : 422 });
  }
  const answer = await saveSettingsSection(session.shop, section, form);
  return data<SectionSaved>(answer, { status: answer.status === "invalid" ? 422 : 200 });
}

export default function SettingsSection() {
  const loaded = useLoaderData<typeof loader>();
  // Typed by hand: without the single-fetch type augmentation, `typeof action` does not unwrap data().
  const answer = useActionData<SectionSaved | ExperimentActionResult>();
  const title = sectionTitle(loaded.section);
  const back = [{ content: "Settings", url: "/app/settings" }];
  if (loaded.section === "experiment") {
    const result = answer && "intent" in answer ? answer : null;
    return (
      <AdminPage title={title} backAction={back[0]}>
        {loaded.experiment && (
          <Layout>
            <ExperimentCard key={`${loaded.experiment.running}-${loaded.experiment.startedAt}`} settings={loaded.experiment} result={result} />
          </Layout>
        )}
      </AdminPage>
    );
  }
  const section = loaded.section;
  const result = answer && "status" in answer && answer.section === section ? answer : undefined;
  // A save remounts the form with what was stored; a refused one keeps what the merchant typed.
  const key = result?.status === "saved" ? result.savedAt : `${section}-loaded`;
  return (
    <AdminPage title={title} backAction={back[0]}>
      <SettingsSectionForm key={key} section={section} initial={{ ...loaded.values, ...result?.values }} errors={result?.errors ?? {}} saved={result?.status === "saved"}>
        {(form) => <SectionCards section={section} form={form} figures={loaded.figures} />}
      </SettingsSectionForm>
    </AdminPage>
  );
}
