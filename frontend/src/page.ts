// What every page shares: Home Assistant's `hass`, the narrow flag, translated texts, and the
// small templates for progress and errors.
import { LitElement, html, nothing } from "lit";
import { property } from "lit/decorators.js";
import { errorText } from "./api";
import { formatNumber, panelLanguage, translator, type Translate } from "./i18n";
import type { HomeAssistant } from "./types";

export class PageElement extends LitElement {
  @property({ attribute: false }) hass!: HomeAssistant;
  @property({ type: Boolean }) narrow = false;

  protected get t(): Translate {
    return translator(this.hass?.language);
  }

  protected get uiLang(): string {
    return panelLanguage(this.hass?.language);
  }

  protected num(value: number | null | undefined, digits = 0): string {
    return value === null || value === undefined ? "—" : formatNumber(this.hass?.language, value, digits);
  }

  protected percent(value: number | null | undefined): string {
    return value === null || value === undefined ? "—" : `${this.num(value * 100, 1)} %`;
  }

  protected errorMessage(err: unknown): string {
    return errorText(this.hass, err, this.t("error.unknown"));
  }

  protected progress(active: boolean) {
    return active ? html`<div class="progress" role="progressbar" aria-label=${this.t("common.working")}></div>` : nothing;
  }

  protected errorBox(message: string | null) {
    return message ? html`<div class="error" role="alert">${message}</div>` : nothing;
  }
}

export function bar(value: number, kind = "") {
  const width = Math.max(0, Math.min(1, Number.isFinite(value) ? value : 0)) * 100;
  return html`<div class="bar ${kind}"><span style="width:${width.toFixed(1)}%"></span></div>`;
}
