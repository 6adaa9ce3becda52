// Search: explainable entity search while typing, with a bar per score component, paging, and
// a banner when the semantic side is down or timed out.
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { Latest, call, debounce } from "../api";
import { PageElement, bar } from "../page";
import { shared } from "../styles";

interface Hit {
  entity_id: string;
  name: string;
  area: string | null;
  matched: string;
  matched_field: string;
  score: number;
  score_breakdown: Record<string, number>;
}
interface Result {
  results: Hit[];
  total: number;
  page: number;
  page_size: number;
  has_more: boolean;
  strategy: string;
  degraded: { code: string; fallback?: string }[];
  milliseconds: number;
}

export const SEARCH_DELAY_MS = 150;
const PAGE_SIZE = 20;

/** "[Ceil]ing Light" → the bracketed part highlighted (\\, \[ and \] are literal). */
export function highlighted(marked: string) {
  const parts: { text: string; hit: boolean }[] = [];
  let current = "";
  let hit = false;
  for (let i = 0; i < marked.length; i++) {
    const ch = marked[i];
    if (ch === "\\" && i + 1 < marked.length) { current += marked[++i]; continue; }
    if (ch === "[" || ch === "]") {
      if (current) parts.push({ text: current, hit });
      current = "";
      hit = ch === "[";
      continue;
    }
    current += ch;
  }
  if (current) parts.push({ text: current, hit });
  return parts.map((p) => (p.hit ? html`<mark>${p.text}</mark>` : p.text));
}

export class CrSearch extends PageElement {
  @state() private query = "";
  @state() private strategy = "hybrid";
  @state() private minScore = 0.25;
  @state() private page = 1;
  @state() private searching = false;
  @state() private error: string | null = null;
  @state() private result: Result | null = null;
  private latest = new Latest();
  private scheduleSearch = debounce(() => this.search(), SEARCH_DELAY_MS);

  disconnectedCallback(): void {
    this.scheduleSearch.cancel();
    super.disconnectedCallback();
  }

  private changed(reset = true) {
    if (reset) this.page = 1;
    if (!this.query.trim()) {
      this.scheduleSearch.cancel();
      this.latest.cancel();
      this.result = null;
      this.error = null;
      this.searching = false;
      return;
    }
    this.searching = true;
    this.scheduleSearch();
  }

  private async search() {
    const query = this.query.trim();
    if (!query) return;
    this.searching = true;
    const payload = { query, strategy: this.strategy, min_score: this.minScore,
                      page: this.page, page_size: PAGE_SIZE };
    const { current, value } = await this.latest.run(() => call<Result>(this.hass, "search", payload)
      .then((result) => ({ result, error: null as unknown }),
            (error: unknown) => ({ result: null, error })));
    if (!current) return;
    this.searching = false;
    this.result = value.result;
    this.error = value.error ? this.errorMessage(value.error) : null;
  }

  private goto(page: number) {
    this.page = page;
    this.changed(false);
  }

  render() {
    const t = this.t;
    return html`
      <div class="card">
        <h2>${t("search.heading")}</h2>
        <div class="row">
          <div class="grow">
            <label for="query">${t("search.query")}</label>
            <input id="query" type="text" .value=${this.query} placeholder=${t("search.placeholder")}
              @input=${(e: Event) => { this.query = (e.target as HTMLInputElement).value; this.changed(); }} />
          </div>
          <div>
            <label for="strategy">${t("search.mode")}</label>
            <select id="strategy" @change=${(e: Event) => {
              this.strategy = (e.target as HTMLSelectElement).value; this.changed();
            }}>${["hybrid", "keyword", "semantic"].map((s) => html`<option value=${s}
              ?selected=${s === this.strategy}>${t(`search.mode.${s}`)}</option>`)}</select>
          </div>
          <div style="min-width:160px">
            <label for="min-score">${t("search.min_score", { value: this.num(this.minScore, 2) })}</label>
            <input id="min-score" type="range" min="0" max="1" step="0.05" .value=${String(this.minScore)}
              @input=${(e: Event) => { this.minScore = Number((e.target as HTMLInputElement).value); this.changed(); }} />
          </div>
        </div>
        ${this.progress(this.searching)}
        <div id="search-state" class="muted small" aria-live="polite">${this.stateText()}</div>
        ${this.errorBox(this.error)}
      </div>
      ${this.result ? this.renderResult(this.result) : nothing}
    `;
  }

  private stateText() {
    const t = this.t;
    if (this.searching) return t("search.searching");
    if (this.error) return t("search.failed");
    if (!this.result) return t("search.idle");
    if (!this.result.total) return t("search.empty");
    return t("search.count", { total: this.num(this.result.total), ms: this.num(this.result.milliseconds, 1) });
  }

  private renderResult(r: Result) {
    const t = this.t;
    const pages = Math.max(1, Math.ceil(r.total / r.page_size));
    return html`
      ${r.degraded.length ? html`<div class="banner" id="degraded" role="status">
        ${r.degraded.map((d) => html`<div>${t("search.degraded", { code: d.code,
          fallback: t(`search.fallback.${d.fallback ?? "hashing"}`) })}</div>`)}</div>` : nothing}
      <div class="card">
        ${r.results.length ? html`<div class="table-wrap"><table id="results" class="cards">
          <thead><tr><th>${t("common.entity")}</th><th class="hide-narrow">${t("common.area")}</th>
            <th>${t("common.score")}</th><th>${t("try.breakdown")}</th></tr></thead>
          <tbody>${r.results.map((hit) => html`<tr class="hit">
            <td>${highlighted(hit.matched)}
              ${hit.matched_field !== "name" ? html`<span class="muted small">(${t(`search.field.${hit.matched_field}`)})</span>` : nothing}
              <br><span class="small">${hit.name}</span> <code class="muted">${hit.entity_id}</code></td>
            <td class="hide-narrow">${hit.area ?? "—"}</td>
            <td>${this.num(hit.score, 3)}</td>
            <td><div class="bars">
              <span>${t("score.keyword")}</span>${bar(hit.score_breakdown.keyword ?? 0)}<span>${this.num(hit.score_breakdown.keyword ?? 0, 2)}</span>
              <span>${t("score.semantic")}</span>${bar(hit.score_breakdown.semantic ?? 0, "semantic")}<span>${this.num(hit.score_breakdown.semantic ?? 0, 2)}</span>
              <span>${t("score.recency")}</span>${bar(hit.score_breakdown.recency ?? 0, "recency")}<span>${this.num(hit.score_breakdown.recency ?? 0, 2)}</span>
            </div></td></tr>`)}</tbody>
        </table></div>` : html`<p class="muted" id="no-results">${t("search.empty_hint")}</p>`}
        ${r.total > r.page_size ? html`<div class="row" id="paging" style="justify-content:center;margin-top:12px">
          <button class="secondary" id="prev" ?disabled=${r.page <= 1} @click=${() => this.goto(r.page - 1)}>${t("search.prev")}</button>
          <span>${t("search.page", { page: r.page, pages })}</span>
          <button class="secondary" id="next" ?disabled=${!r.has_more} @click=${() => this.goto(r.page + 1)}>${t("search.next")}</button>
        </div>` : nothing}
      </div>
    `;
  }

  static styles = [shared];
}
