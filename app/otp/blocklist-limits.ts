// The blocklist's limits, apart from the parser so the admin's page can show them without bundling phone metadata.

/** The most lines one import takes: a list longer than this is refused whole, with nothing stored. */
export const BLOCKLIST_IMPORT_MAX_LINES = 5000;
/** The longest reason kept with a blocked number. */
export const BLOCKLIST_REASON_MAX = 200;

/**
 * How long a block can last, in days: 0 keeps it until the merchant unblocks the number (the default); any other
 * ends it then, and the retention job deletes the entry within the hour after (app/privacy/retention.server.ts).
 */
export const BLOCK_PERIOD_DAYS = [0, 30, 90, 365] as const;
