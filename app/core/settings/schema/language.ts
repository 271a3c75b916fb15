import { z } from "zod";
import { LOCALES } from "~/shared/locales";

/** The "Language" card: texts and pages when the shopper's own language is not known. */
export const languageSection = z.object({
  locale: z.enum(LOCALES, { errorMap: () => ({ message: "Choose one of the listed languages." }) }),
});
