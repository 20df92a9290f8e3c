import { browserLanguage, isLanguage, setLanguage, type Language } from './i18n';

/**
 * The language chosen on this device, kept in localStorage so the sign-in page (before any user is
 * known) speaks it too; '' or nothing means "follow the browser". After sign-in the user's own
 * choice (Account settings, Profile) takes over and is copied here.
 */
const DEVICE_LANGUAGE_KEY = 'language';

export type LanguageChoice = Language | '';

export function deviceLanguageChoice(): LanguageChoice {
  try {
    const stored = globalThis.localStorage?.getItem(DEVICE_LANGUAGE_KEY);
    return isLanguage(stored) ? stored : '';
  } catch {
    // Storage can be refused (private modes, sandboxed frames): the browser's language then applies.
    return '';
  }
}

function rememberOnDevice(choice: LanguageChoice): void {
  try {
    if (choice) globalThis.localStorage?.setItem(DEVICE_LANGUAGE_KEY, choice);
    else globalThis.localStorage?.removeItem(DEVICE_LANGUAGE_KEY);
  } catch {
    // Not remembered on this device; the user's choice still applies now.
  }
}

/** The language a choice stands for: itself, or the browser's for ''. */
export function resolveLanguage(choice: LanguageChoice): Language {
  return choice || browserLanguage();
}

/** Applies a choice now (loading its texts if needed) and remembers it on this device. */
export async function applyLanguageChoice(choice: LanguageChoice): Promise<void> {
  rememberOnDevice(choice);
  await setLanguage(resolveLanguage(choice));
}
