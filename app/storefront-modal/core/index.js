import { allowedModes, MODES, normalCheckoutUrl, numericVariantId } from "./modes.js";
import { clock, failureMessage, interpret } from "./outcomes.js";
import { asciiDigits, countryList, displayPhone, extractCode, maskedPhone, toE164 } from "./phone.js";
import { amountText, money, quote, presentmentRate } from "./pricing.js";
import { pricingWithDeposit, riskDeposit, riskModes, riskNoteKey } from "./risk.js";
import { newBehaviour, noteOpened, noteSent, noteTyped, sendFields, verifyFields } from "./behaviour.js";
import { isRtl, translate, unescapeHtml } from "./texts.js";

/** The pure half: no document, no network (tests/extension/cod-modal.core.test.ts runs it in a sandbox). */
export var core = {
  asciiDigits: asciiDigits,
  toE164: toE164,
  extractCode: extractCode,
  allowedModes: allowedModes,
  numericVariantId: numericVariantId,
  normalCheckoutUrl: normalCheckoutUrl,
  clock: clock,
  interpret: interpret,
  failureMessage: failureMessage,
  translate: translate,
  unescapeHtml: unescapeHtml,
  isRtl: isRtl,
  displayPhone: displayPhone,
  maskedPhone: maskedPhone,
  countryList: countryList,
  quote: quote,
  presentmentRate: presentmentRate,
  money: money,
  amountText: amountText,
  MODES: MODES,
  riskModes: riskModes,
  riskNoteKey: riskNoteKey,
  riskDeposit: riskDeposit,
  pricingWithDeposit: pricingWithDeposit,
  newBehaviour: newBehaviour,
  noteOpened: noteOpened,
  noteSent: noteSent,
  noteTyped: noteTyped,
  sendFields: sendFields,
  verifyFields: verifyFields,
};
