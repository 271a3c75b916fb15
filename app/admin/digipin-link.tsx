import { Link, Text } from "@shopify/polaris";

/** The shopper's DIGIPIN on the Orders page, opening the map at its cell for the merchant (or the courier they send it to). */
export function DigipinLink({ digipin, map }: { digipin: string; map: string }) {
  return (
    <Text as="p" variant="bodySm">
      <Link url={map} target="_blank" removeUnderline={false} accessibilityLabel={`DIGIPIN ${digipin}: open the map`}>
        <bdi dir="ltr">{`DIGIPIN ${digipin}`}</bdi>
      </Link>
    </Text>
  );
}
