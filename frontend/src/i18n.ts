// The panel's texts in the user's Home Assistant language (English and Simplified Chinese;
// any other language falls back to English).
import en from "./translations/en.json";
import zhHans from "./translations/zh-Hans.json";

type Dictionary = Record<string, string>;
const DICTIONARIES: Record<string, Dictionary> = { en, "zh-Hans": zhHans };

export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function panelLanguage(language: string | undefined): string {
  const tag = (language || "en").toLowerCase();
  return tag.startsWith("zh") ? "zh-Hans" : "en";
}

export function translator(language: string | undefined): Translate {
  const lang = panelLanguage(language);
  const dictionary = DICTIONARIES[lang];
  return (key, params) => {
    let text = dictionary[key] ?? (en as Dictionary)[key] ?? key;
    if (params) {
      for (const [name, value] of Object.entries(params)) {
        text = text.split(`{${name}}`).join(String(value));
      }
    }
    return text;
  };
}

export function formatNumber(language: string | undefined, value: number,
                             digits = 0): string {
  return value.toLocaleString(panelLanguage(language) === "zh-Hans" ? "zh-CN" : "en-US",
    { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}
