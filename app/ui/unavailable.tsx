import { AppProvider, Banner, BlockStack, Button, Card, Page, Text } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";

/**
 * The admin's error state while the app's database cannot be used (the loader threw 503
 * `unavailable`). Rendered by the error boundary, outside the app's own AppProvider (its loader data
 * is not there), so it brings Polaris's. "Try again" reloads the page: the server recovers on its own
 * when the database is back.
 */
export function AdminUnavailable() {
  return (
    <AppProvider i18n={enTranslations}>
      <Page title="COD Verify">
        <Card>
          <BlockStack gap="400">
            <Banner tone="critical" title="COD Verify is briefly unavailable">
              <Text as="p">
                The app cannot reach its database right now. Your checkout settings and verifications are unchanged; try again in a
                moment.
              </Text>
            </Banner>
            <div>
              <Button onClick={() => window.location.reload()}>Try again</Button>
            </div>
          </BlockStack>
        </Card>
      </Page>
    </AppProvider>
  );
}
