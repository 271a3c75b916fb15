import { Form, Link, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, InlineStack, Layout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { ExperimentActionResult, ExperimentSettings } from "./settings-page.server";
import { experimentReach, reachSentence } from "./reach";
import { HOLDOUT_SHARE, MAX_EXPERIMENT_DAYS } from "./settings";

/** "Use 20 % for 91 days": the card's suggestion, filled in on a click. */
function SuggestionButton({ suggestion, choose }: { suggestion: { percent: number; days: number }; choose: (s: { percent: number; days: number }) => void }) {
  return <Button onClick={() => choose(suggestion)}>{`Use ${suggestion.percent} % for ${suggestion.days} days`}</Button>;
}

/**
 * The Settings' "Holdout experiment" page: its own forms (starting or stopping an experiment is an action,
 * not a setting), posted with an `intent`. The money it counts comes from the Costs settings.
 */
export function ExperimentCard({ settings, result }: { settings: ExperimentSettings; result: ExperimentActionResult | null }) {
  const busy = useNavigation().state !== "idle";
  const errors = result?.errors ?? {};
  const [percent, setPercent] = useState(String(settings.holdoutPercent));
  const [days, setDays] = useState("");
  // Said before the start, as the merchant types: can this share and period reach a result at the store's pace?
  const chosenDays = /^\d+$/.test(days.trim()) ? Number(days) : null;
  const reach = settings.pace && experimentReach(settings.pace, Number(percent), chosenDays);
  const reachText = settings.pace && reach ? reachSentence(settings.pace, Number(percent), reach) : null;
  return (
    <Layout.AnnotatedSection
      id="experiment"
      title="Holdout experiment"
      description="Measure what verification saves you: a small random share of cash-on-delivery shoppers is not asked to verify, and their failed deliveries are compared with everyone else's."
    >
      <BlockStack gap="400">
        {!settings.costsSet && (
          <Text as="p" tone="subdued">
            The report counts money saved once the cost of a failed parcel is set: <Link to="/app/settings/costs">Costs</Link>.
          </Text>
        )}
        {result && (
          <Banner tone={result.ok ? "success" : "critical"}>
            <p>{result.message}</p>
          </Banner>
        )}
        <Card>
          {settings.running ? (
            <Form method="post">
              <input type="hidden" name="intent" value="experiment-stop" />
              <BlockStack gap="300">
                <Text as="p">
                  Running since {settings.dayWords?.first}
                  {settings.dayWords?.last ? `, through ${settings.dayWords.last}` : ", until you stop it"}: {settings.holdoutPercent} % of
                  shoppers are not asked to verify.
                </Text>
                {settings.sentence && <Text as="p" tone="subdued">{settings.sentence}</Text>}
                <InlineStack gap="200">
                  <Link to="/app/experiment">See the report</Link>
                </InlineStack>
                <InlineStack align="end">
                  <Button submit tone="critical" loading={busy}>
                    Stop the experiment
                  </Button>
                </InlineStack>
              </BlockStack>
            </Form>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="experiment-start" />
              <FormLayout>
                {settings.sentence && (
                  <Text as="p" tone="subdued">
                    Last experiment: {settings.sentence} <Link to="/app/experiment">See the report</Link>
                  </Text>
                )}
                <TextField
                  label="Shoppers not asked to verify"
                  name="holdoutPercent"
                  type="number"
                  suffix="%"
                  min={HOLDOUT_SHARE.min}
                  max={HOLDOUT_SHARE.max}
                  value={percent}
                  onChange={setPercent}
                  error={errors.holdoutPercent}
                  autoComplete="off"
                  helpText={`From ${HOLDOUT_SHARE.min} to ${HOLDOUT_SHARE.max} %. Default: ${HOLDOUT_SHARE.default} %. High-risk shoppers, your rules' matches and blocked numbers are always asked.`}
                />
                <TextField
                  label="Run for"
                  name="days"
                  type="number"
                  suffix="days"
                  min={1}
                  max={MAX_EXPERIMENT_DAYS}
                  value={days}
                  onChange={setDays}
                  error={errors.days}
                  autoComplete="off"
                  helpText="Leave empty to run until you stop it. The result is given once enough orders are delivered or returned, not before."
                />
                {reach && reachText && (
                  <Banner tone={reach.kind === "reachable" ? "info" : "warning"} title={reach.kind === "reachable" ? "This can reach a result" : "This cannot reach a result at your pace"}>
                    <BlockStack gap="200">
                      <p>{reachText}</p>
                      {reach.kind !== "reachable" && reach.kind !== "unknown" && reach.suggestion && (
                        <InlineStack>
                          <SuggestionButton
                            suggestion={reach.suggestion}
                            choose={(s) => {
                              setPercent(String(s.percent));
                              setDays(String(s.days));
                            }}
                          />
                        </InlineStack>
                      )}
                    </BlockStack>
                  </Banner>
                )}
                <InlineStack align="end">
                  <Button submit variant="primary" loading={busy}>
                    Start the experiment
                  </Button>
                </InlineStack>
              </FormLayout>
            </Form>
          )}
        </Card>
      </BlockStack>
    </Layout.AnnotatedSection>
  );
}
