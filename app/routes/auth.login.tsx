import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { LoginErrorType, type LoginError } from "@shopify/shopify-app-remix/server";
import { login } from "~/core/shopify/app.server";

/**
 * /auth/login, the library's configured login path (authPathPrefix + "/login"), wired as Shopify's
 * Remix template wires it: `login(request)` redirects to the shop's OAuth when given a valid `shop`
 * (query on GET, form field on POST) and otherwise returns the errors this form shows.
 */
export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { errors: loginErrorMessage(await login(request)) };
}

export async function action({ request }: ActionFunctionArgs) {
  // The form posts; anything else (or a body that is not a form, which the library cannot read) is
  // the client's mistake, answered 405/400 rather than a 500 from inside `login`.
  if (request.method !== "POST") throw new Response(null, { status: 405, headers: { Allow: "GET, POST" } });
  const readable = new URL(request.url).searchParams.has("shop") || (await request.clone().formData().catch(() => null));
  if (!readable) throw new Response(null, { status: 400 });
  return { errors: loginErrorMessage(await login(request)) };
}

/** The library's login errors as the sentence shown under the shop field. */
function loginErrorMessage(loginErrors: LoginError): { shop?: string } {
  if (loginErrors?.shop === LoginErrorType.MissingShop) return { shop: "Enter your shop domain to log in." };
  if (loginErrors?.shop === LoginErrorType.InvalidShop) return { shop: "Enter a valid shop domain (your-shop.myshopify.com) to log in." };
  return {};
}

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const { errors } = actionData ?? loaderData;
  return (
    <AppProvider i18n={enTranslations}>
      <Page>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h1">
                Log in to COD Verify
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="your-shop.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </AppProvider>
  );
}
