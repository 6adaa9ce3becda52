// Health: the index, degradations, and the rates the diagnostics download carries.
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { call } from "../api";
import { PageElement } from "../page";
import { shared } from "../styles";

interface Health {
  index: {
    state: string; entities: number; areas: number; floors: number; builds: number;
    last_build_seconds: number; last_build_at: number | null; rebuilding: boolean;
    languages: string[]; by_domain: Record<string, number>;
  };
  languages_seen: Record<string, number>;
  degradations: { kind: string; code: string }[];
  compile_success_rate: number | null;
  llm_fallback_rate: number | null;
  compiles: number;
  preview_p95_ms: number | null;
  previews: number;
  error_rate: number | null;
  plan_cache_hit_rate: number | null;
  questions_asked: number;
  question_p95_ms: number | null;
  retrievals: number;
  retrieval_p95_ms: number | null;
  backpressured: number;
  embeddings: { configured: boolean; kind: string | null; vectors: number };
}

const REFRESH_MS = 15_000;

export class CrHealth extends PageElement {
  @state() private health: Health | null = null;
  @state() private loading = false;
  @state() private error: string | null = null;
  private timer?: ReturnType<typeof setInterval>;

  connectedCallback(): void {
    super.connectedCallback();
    this.load();
    this.timer = setInterval(() => this.load(), REFRESH_MS);
  }

  disconnectedCallback(): void {
    if (this.timer) clearInterval(this.timer);
    super.disconnectedCallback();
  }

  private async load() {
    this.loading = true;
    try {
      this.health = await call<Health>(this.hass, "health");
      this.error = null;
    } catch (err) {
      this.error = this.errorMessage(err);
    } finally {
      this.loading = false;
    }
  }

  render() {
    const t = this.t;
    const h = this.health;
    return html`
      <div class="card">
        <div class="row" style="justify-content:space-between">
          <h2>${t("health.heading")}</h2>
          <button class="secondary" id="refresh" ?disabled=${this.loading} @click=${this.load}>${t("common.refresh")}</button>
        </div>
        ${this.progress(this.loading)}
        ${this.errorBox(this.error)}
        ${h ? this.renderIndex(h) : nothing}
      </div>
      ${h ? this.renderRates(h) : nothing}
    `;
  }

  private stat(label: string, value: unknown, id = "") {
    return html`<div class="stat" id=${id || nothing}><div class="label">${label}</div>
      <div class="big-number" style="font-size:22px">${value}</div></div>`;
  }

  private renderIndex(h: Health) {
    const t = this.t;
    const i = h.index;
    const when = i.last_build_at ? new Date(i.last_build_at * 1000).toLocaleString(
      this.uiLang === "zh-Hans" ? "zh-CN" : "en-US") : "—";
    return html`
      <h3>${t("health.index")}</h3>
      <div class="stats" id="index-stats">
        ${this.stat(t("health.state"), html`<span id="index-state">${t(`health.state.${i.state}`)}</span>`)}
        ${this.stat(t("health.entities"), this.num(i.entities), "entities")}
        ${this.stat(t("health.areas"), `${this.num(i.areas)} / ${this.num(i.floors)}`)}
        ${this.stat(t("health.languages"), i.languages.join(", ") || "—")}
        ${this.stat(t("health.last_build"), html`<span style="font-size:14px">${when}</span>
          <div class="muted small">${t("health.build_seconds", { seconds: this.num(i.last_build_seconds, 3), builds: i.builds })}</div>`)}
      </div>
      <h3 style="margin-top:16px">${t("health.degradations")}</h3>
      <div id="degradations">${h.degradations.length ? h.degradations.map((d) => html`
        <div class="warning">${t(`health.degradation.${d.kind}`)}: <code>${d.code}</code></div>`)
        : html`<div class="ok-note">${t("health.no_degradations")}</div>`}</div>
    `;
  }

  private renderRates(h: Health) {
    const t = this.t;
    const ms = (v: number | null) => (v === null ? "—" : `${this.num(v, 1)} ms`);
    return html`
      <div class="card">
        <h3>${t("health.rates")}</h3>
        <div class="stats" id="rates">
          ${this.stat(t("health.compile_success"), this.percent(h.compile_success_rate))}
          ${this.stat(t("health.llm_fallback"), this.percent(h.llm_fallback_rate))}
          ${this.stat(t("health.preview_p95"), ms(h.preview_p95_ms))}
          ${this.stat(t("health.error_rate"), this.percent(h.error_rate))}
          ${this.stat(t("health.plan_cache_hit"), this.percent(h.plan_cache_hit_rate))}
          ${this.stat(t("health.retrieval_p95"), ms(h.retrieval_p95_ms))}
          ${this.stat(t("health.question_p95"), ms(h.question_p95_ms))}
          ${this.stat(t("health.backpressured"), this.num(h.backpressured))}
        </div>
        <p class="muted small">${t("health.counts", { compiles: h.compiles, previews: h.previews,
          questions: h.questions_asked, retrievals: h.retrievals })}</p>
        <p class="muted small">${h.embeddings.configured
          ? t("health.embeddings_on", { kind: h.embeddings.kind ?? "", vectors: this.num(h.embeddings.vectors) })
          : t("health.embeddings_off")}</p>
      </div>
    `;
  }

  static styles = [shared];
}
