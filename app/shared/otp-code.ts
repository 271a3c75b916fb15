/** One-time codes: how many digits, written once for the code's maker, its checkers and the pages that ask for it. */
export const CODE_LENGTH = 6;

/** A whole code as typed (digits only, exactly CODE_LENGTH of them). */
export const CODE_PATTERN = new RegExp(`^\\d{${CODE_LENGTH}}$`);
