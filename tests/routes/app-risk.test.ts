import * as risk from "~/routes/app.risk";
import { prisma } from "~/core/db.server";
import type { RiskSettingsErrors, RiskSettingsValues } from "~/risk/risk-settings";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";

type Answer = { status?: string; values: RiskSettingsValues; errors: RiskSettingsErrors };
const load = async () => callAdminRoute<Answer>(risk, await adminRequest("/app/risk"));
const save = async (form: Record<string, string>) => callAdminRoute<Answer>(risk, await adminRequest("/app/risk", { form }));
const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const FORM = { riskMediumThreshold: "20", riskHighThreshold: "60", riskDeniedPostalCodes: "", riskPrepaidPhones: "", riskCodValueCap: "" };

describe("/app/risk: the merchant's rules and bands", () => {
  it("shows the safe defaults: bands 20 and 60, no rules", async () => {
    await installShop();
    expect((await load()).data?.values).toEqual(FORM);
  });

  it("saves the rules normalised (postal codes without spaces, phones in E.164) and only the risk columns", async () => {
    await installShop({ otpTtlSeconds: 900 });
    const res = await save({
      ...FORM,
      riskHighThreshold: "70",
      riskDeniedPostalCodes: "110 001\n4000*",
      riskPrepaidPhones: "+91 98123-45678, 0091 9800000001",
      riskCodValueCap: "2500,50",
      otpTtlSeconds: "60",
    });
    expect(res.status).toBe(200);
    expect(await row()).toMatchObject({
      riskHighThreshold: 70,
      riskDeniedPostalCodes: "110001\n4000*",
      riskPrepaidPhones: "+919812345678\n+919800000001",
      riskCodValueCap: 2500.5,
      otpTtlSeconds: 900,
    });
  });

  it("refuses unreadable entries and bands out of order with 422, saving nothing", async () => {
    await installShop();
    const res = await save({ ...FORM, riskPrepaidPhones: "call me", riskCodValueCap: "-5" });
    expect(res.status).toBe(422);
    expect(res.data?.errors).toEqual({
      riskPrepaidPhones: "Not phone numbers in international form (+ and country code): call me.",
      riskCodValueCap: "Enter an amount above 0 (up to two decimals), or leave it empty for no cap.",
    });
    const bands = await save({ ...FORM, riskMediumThreshold: "60", riskHighThreshold: "40" });
    expect(bands.status).toBe(422);
    expect(bands.data?.errors).toEqual({ riskHighThreshold: "The high band must start above the medium band." });
    expect(await row()).toMatchObject({ riskMediumThreshold: 20, riskHighThreshold: 60, riskPrepaidPhones: "", riskCodValueCap: null });
  });

  it("refuses a request without a session token", async () => {
    await installShop();
    const res = await callAdminRoute<Answer>(risk, await adminRequest("/app/risk", { form: FORM, unauthenticated: true }));
    expect(res.status).not.toBe(200);
    expect((await row()).riskHighThreshold).toBe(60);
  });
});
