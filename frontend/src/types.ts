// The parts of Home Assistant's frontend objects the panel uses.

export interface HassError {
  code?: string;
  message?: string;
  translation_key?: string;
  translation_domain?: string;
  translation_placeholders?: Record<string, string>;
}

export interface HomeAssistant {
  language: string;
  locale?: { language: string };
  themes?: { darkMode?: boolean };
  callWS<T>(msg: Record<string, unknown>): Promise<T>;
  localize(key: string, values?: Record<string, unknown>): string;
  loadBackendTranslation?(category: string, integration?: string): Promise<unknown>;
}

export interface PanelInfo {
  url_path: string;
  config?: { version?: string; brand?: string };
}

export interface Route {
  prefix: string;
  path: string;
}
