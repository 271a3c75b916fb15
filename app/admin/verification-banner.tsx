import { useMatches } from "@remix-run/react";
import { Banner, Box, Text } from "@shopify/polaris";
import type { VerificationNotice } from "~/enforcement/admin-notice.server";
import { PAUSE_RESUME, PAUSE_WHY, shopperView } from "~/enforcement/messages";

const int = (n: number) => n.toLocaleString("en-US");
const usd = (n: number) => `$${n.toFixed(2)}`;

/** "50 of 50 used", but past it (the month's use began on a larger plan) never "139 of 50". */
const allowanceUsed = (used: number, allowance: number) =>
  used > allowance
    ? `${int(used)} verifications this month, more than the ${int(allowance)} your plan includes. `
    : `${int(used)} of ${int(allowance)} verifications used this month. `;

type NoticeData = { verificationNotice?: VerificationNotice };

/**
 * The layout's notice (routes/app), unless the page read its own after changing the shop (the plans page,
 * back from Shopify's approval): the innermost route that has one, so the banner never says what was
 * true before the page's own loader changed it.
 */
function useVerificationNotice(): VerificationNotice | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i].data as NoticeData | null | undefined;
    if (data && typeof data === "object" && "verificationNotice" in data) return data.verificationNotice;
  }
  return undefined;
}

/**
 * On every admin page (AdminPage draws it): while verification is paused, why, what shoppers see now
 * and how to resume; from 80 % of the month's allowance, what will happen at 100 %.
 */
export function VerificationBanner() {
  const notice = useVerificationNotice();
  if (!notice) return null;
  if (notice.kind === "burn") {
    return (
      <Box paddingBlockEnd="400">
        <Banner tone="warning" title="Unusual use of your verifications: protection continues" action={{ content: "Review orders", url: "/app/orders" }}>
          <Text as="p">
            Seen {new Date(notice.seenAt).toUTCString()}: {notice.detail}. Someone may be verifying numbers of their own to use up this month&apos;s allowance so that
            verification pauses. Instead, a reserve of {int(notice.reserve)} more verifications, free of charge, keeps verifying shoppers until the 1st of next month (UTC):{" "}
            {int(notice.used)} of {int(notice.allowance)} used.
          </Text>
          <Text as="p">Nothing for you to do unless it goes on; the Blocklist stops numbers you do not trust, and a larger plan raises the allowance.</Text>
        </Banner>
      </Box>
    );
  }
  if (notice.kind === "paused") {
    const resumeUrl = notice.why === "otp_off" ? "/app/settings" : "/app/plans";
    return (
      <Box paddingBlockEnd="400">
        <Banner
          tone={notice.codHidden ? "critical" : "warning"}
          title={`Verification paused: ${PAUSE_WHY[notice.why]}`}
          action={{ content: notice.why === "otp_off" ? "Open Settings" : "See plans", url: resumeUrl }}
        >
          <Text as="p">
            {notice.why === "allowance_used" ? allowanceUsed(notice.used, notice.allowance) : ""}
            {shopperView(notice.codHidden)}
            {notice.updating ? " Shopify's checkout is being updated to this now (within a minute)." : ""}
          </Text>
          <Text as="p">{PAUSE_RESUME[notice.why]}</Text>
          {notice.burn ? (
            <Text as="p">
              Unusual use was seen this month ({notice.burn.detail}); the reserve of {int(notice.burn.reserve)} verifications it opened is used up too.
            </Text>
          ) : null}
        </Banner>
      </Box>
    );
  }
  if (notice.kind === "usage_charging") {
    const { usage } = notice;
    return (
      <Box paddingBlockEnd="400">
        <Banner tone="info" title="Past this month's allowance: verifications are charged as usage" action={{ content: "See plans", url: "/app/plans" }}>
          <Text as="p">
            {int(notice.used)} of {int(notice.allowance)} used; each further verification is {usd(usage.price)} on your Shopify invoice, {usd(usage.spent)} of
            your {usd(usage.cap)} cap so far. At the cap, verification pauses until the 1st of next month (UTC).
          </Text>
        </Banner>
      </Box>
    );
  }
  const { usage } = notice;
  return (
    <Box paddingBlockEnd="400">
      <Banner tone="info" title={`${Math.floor((notice.used / notice.allowance) * 100)} % of this month's verifications used`} action={{ content: "See plans", url: "/app/plans" }}>
        <Text as="p">
          {int(notice.used)} of {int(notice.allowance)} used.{" "}
          {usage ? (
            <>
              Past {int(notice.allowance)}, each verification is charged {usd(usage.price)} as usage, up to your {usd(usage.cap)} cap; then verification pauses until
              the 1st of next month (UTC).
            </>
          ) : (
            <>
              At {int(notice.allowance)}, verification pauses until the 1st of next month (UTC):{" "}
              {notice.keepCodHiddenWhenPaused ? "checkout keeps cash on delivery hidden, so nobody can pay on delivery." : "checkout then offers cash on delivery to everyone, unverified."} A
              larger plan, or usage charges past the allowance (Settings, on a paid plan), keep verifying.
            </>
          )}
        </Text>
      </Banner>
    </Box>
  );
}
