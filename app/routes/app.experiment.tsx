import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PolarisVizProvider } from "@shopify/polaris-viz";
import vizStyles from "@shopify/polaris-viz/build/esm/styles.css";
import { AdminPage } from "~/admin/app-bridge";
import { authenticate } from "~/core/shopify/app.server";
import { ExperimentReportView } from "~/experiment/report-view";
import { loadExperimentReportPage } from "~/experiment/settings-page.server";

export const links = () => [{ rel: "stylesheet", href: vizStyles }];
export const meta: MetaFunction = () => [{ title: "Holdout experiment · COD Verify" }];

/** The holdout experiment's report: per arm, the failure rates, the difference and what it saved (docs/experiment.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  return loadExperimentReportPage(session.shop);
}

export default function Experiment() {
  const { report, sentence } = useLoaderData<typeof loader>();
  return (
    <AdminPage title="Holdout experiment">
      <PolarisVizProvider>
        <ExperimentReportView report={report} sentence={sentence} />
      </PolarisVizProvider>
    </AdminPage>
  );
}
