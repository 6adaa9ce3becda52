// <context-retrieval-panel>: the sidebar panel. A toolbar like Home Assistant's own pages
// (with the menu button on narrow screens), one tab per page, the page below.
import { LitElement, css, html, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import { DOMAIN } from "./api";
import { translator } from "./i18n";
import { shared } from "./styles";
import type { HomeAssistant, PanelInfo, Route } from "./types";

export const PAGES = ["try", "views", "questions", "search", "rename", "health"] as const;
export type Page = (typeof PAGES)[number];

export class ContextRetrievalPanel extends LitElement {
  @property({ attribute: false }) hass!: HomeAssistant;
  @property({ type: Boolean, reflect: true }) narrow = false;
  @property({ attribute: false }) route?: Route;
  @property({ attribute: false }) panel?: PanelInfo;
  @state() private page: Page = "try";
  private translationsFor?: string;

  connectedCallback(): void {
    super.connectedCallback();
    this.page = this.pageFromLocation();
    window.addEventListener("popstate", this.onPopState);
  }

  disconnectedCallback(): void {
    window.removeEventListener("popstate", this.onPopState);
    super.disconnectedCallback();
  }

  private onPopState = () => {
    this.page = this.pageFromLocation();
  };

  private pageFromLocation(): Page {
    const last = window.location.pathname.split("/").filter(Boolean)[1];
    return (PAGES as readonly string[]).includes(last) ? (last as Page) : "try";
  }

  protected willUpdate(): void {
    // The integration's translated error messages, in the user's language.
    if (this.hass && this.translationsFor !== this.hass.language) {
      this.translationsFor = this.hass.language;
      this.hass.loadBackendTranslation?.("exceptions", DOMAIN);
    }
  }

  private go(page: Page) {
    if (page === this.page) return;
    this.page = page;
    const base = this.panel?.url_path || "context-retrieval";
    history.pushState(null, "", `/${base}/${page}`);
  }

  private toggleMenu() {
    this.dispatchEvent(new CustomEvent("hass-toggle-menu", { bubbles: true, composed: true }));
  }

  private menuButton() {
    if (customElements.get("ha-menu-button")) {
      return html`<ha-menu-button .hass=${this.hass} .narrow=${this.narrow}></ha-menu-button>`;
    }
    if (!this.narrow) return nothing;
    const t = translator(this.hass?.language);
    return html`<button class="menu" aria-label=${t("panel.menu")} @click=${this.toggleMenu}>
      <svg viewBox="0 0 24 24" width="24" height="24"><path fill="currentColor"
        d="M3,6H21V8H3V6M3,11H21V13H3V11M3,16H21V18H3V16Z"/></svg></button>`;
  }

  // The integration's own icon (brand/, served by the integration), dark on a dark theme.
  private brand() {
    const base = this.panel?.config?.brand;
    if (!base) return nothing;
    const dark = this.hass.themes?.darkMode ? "dark_" : "";
    return html`<img class="brand" src="${base}/${dark}icon.png" alt="" width="28" height="28">`;
  }

  render() {
    if (!this.hass) return html`<div class="loading"></div>`;
    const t = translator(this.hass.language);
    return html`
      <header class="toolbar">
        ${this.menuButton()}
        ${this.brand()}
        <div class="title">${t("panel.title")}</div>
      </header>
      <nav class="tabs" role="tablist">
        ${PAGES.map((page) => html`
          <button role="tab" class="tab ${page === this.page ? "active" : ""}"
            aria-selected=${page === this.page ? "true" : "false"} data-page=${page}
            @click=${() => this.go(page)}>${t(`tab.${page}`)}</button>`)}
      </nav>
      <main>${this.renderPage()}</main>
    `;
  }

  private renderPage() {
    const h = this.hass;
    const n = this.narrow;
    switch (this.page) {
      case "views": return html`<cr-views .hass=${h} .narrow=${n}></cr-views>`;
      case "questions": return html`<cr-questions .hass=${h} .narrow=${n}></cr-questions>`;
      case "search": return html`<cr-search .hass=${h} .narrow=${n}></cr-search>`;
      case "rename": return html`<cr-rename .hass=${h} .narrow=${n}></cr-rename>`;
      case "health": return html`<cr-health .hass=${h} .narrow=${n}></cr-health>`;
      default: return html`<cr-try .hass=${h} .narrow=${n}></cr-try>`;
    }
  }

  static styles = [shared, css`
    :host {
      display: block;
      min-height: 100vh;
      background: var(--primary-background-color);
    }
    .toolbar {
      display: flex;
      align-items: center;
      height: var(--header-height, 56px);
      padding: 0 12px;
      box-sizing: border-box;
      background: var(--app-header-background-color, var(--primary-color));
      color: var(--app-header-text-color, var(--text-primary-color, #fff));
      border-bottom: var(--app-header-border-bottom, none);
      gap: 8px;
    }
    .title { font-size: 20px; font-weight: 400; margin-left: 8px; }
    .brand { width: 28px; height: 28px; margin-left: 8px; border-radius: 6px; }
    button.menu {
      background: transparent; color: inherit; border-radius: 50%; padding: 8px; min-height: 0;
    }
    .tabs {
      display: flex;
      overflow-x: auto;
      gap: 4px;
      padding: 0 8px;
      background: var(--app-header-background-color, var(--primary-color));
      border-bottom: 1px solid var(--divider-color);
      scrollbar-width: none;
    }
    .tab {
      background: transparent;
      color: var(--app-header-text-color, var(--text-primary-color, #fff));
      opacity: 0.75;
      border-radius: 0;
      border-bottom: 2px solid transparent;
      padding: 10px 14px;
      white-space: nowrap;
    }
    .tab.active { opacity: 1; border-bottom-color: currentColor; }
    main {
      max-width: 1100px;
      margin: 0 auto;
      padding: 16px;
    }
    :host([narrow]) main { padding: 8px; }
  `];
}
