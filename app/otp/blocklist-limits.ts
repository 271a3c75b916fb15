// The blocklist's limits, apart from the parser so the admin's page can show them without bundling phone metadata.

/** The most lines one import takes: a list longer than this is refused whole, with nothing stored. */
export const BLOCKLIST_IMPORT_MAX_LINES = 5000;
/** The longest reason kept with a blocked number. */
export const BLOCKLIST_REASON_MAX = 200;
