import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AdminPage } from "~/admin/app-bridge";
import { SettingsIndex } from "~/admin/settings/settings-index";
import { authenticate } from "~/core/shopify/app.server";

export const meta: MetaFunction = () => [{ title: "Settings · COD Verify" }];

/** The settings' index: each section is a page of its own (/app/settings/:section). */
export async function loader({ request }: LoaderFunctionArgs) {
  await authenticate.admin(request);
  return null;
}

export default function Settings() {
  return (
    <AdminPage title="Settings">
      <SettingsIndex />
    </AdminPage>
  );
}
