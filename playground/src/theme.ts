/**
 * The page's colour scheme: light, dark, or the system's (the default). The theme (`@runboard/react/styles.css`)
 * follows `prefers-color-scheme` unless `data-theme` on <html> says otherwise, so "system" removes the
 * attribute. The choice is kept in localStorage; a browser that refuses storage still gets the toggle for the tab.
 */
export type ThemeChoice = "light" | "dark" | "system";

/** The localStorage key of the person's choice. */
export const THEME_KEY = "runboard-playground-theme";

const isChoice = (v: unknown): v is ThemeChoice => v === "light" || v === "dark" || v === "system";

/** The stored choice, or "system" when there is none (or storage is unavailable). */
export function readTheme(): ThemeChoice {
  try {
    const v = window.localStorage.getItem(THEME_KEY);
    return isChoice(v) ? v : "system";
  } catch {
    return "system";
  }
}

/** Shows `choice` on the page (the `data-theme` attribute) and remembers it. */
export function applyTheme(choice: ThemeChoice, store = true) {
  const root = document.documentElement;
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
  if (!store) return;
  try {
    if (choice === "system") window.localStorage.removeItem(THEME_KEY);
    else window.localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Private mode or a full quota: the choice holds for this tab only.
  }
}
