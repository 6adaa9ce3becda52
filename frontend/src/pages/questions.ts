// Questions: ask the home, see the plan as readable filters, the rows and the sentence, where
// the answer came from; suggestions while typing; the saved plans to edit or delete.
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { Latest, call, debounce } from "../api";
import { PageElement } from "../page";
import { shared } from "../styles";
import type { HomeAssistant } from "../types";

// What of Home Assistant's registries the frontend object carries, for names in a plan.
type Named = Record<string, { name?: string } | undefined>;
type WithRegistries = HomeAssistant & {
  areas?: Named;
  floors?: Named;
  states?: Record<string, { state?: string; attributes?: { friendly_name?: string } } | undefined>;
  formatEntityState?: (stateObj: unknown, state?: string) => string;
};

interface Filter { field: string; op: string; value: unknown; attribute?: string; unit?: string }
interface Plan {
  where: Filter[][];
  aggregate: string;
  limit: number;
  measure?: string;
  order_by?: string;
  descending?: boolean;
  expect?: string;
  select?: string[];
}
interface Row { entity_id: string; name: string; area: string | null; state: string; value?: number; unit?: string }
interface Answer {
  success: boolean;
  human: string;
  raw: { aggregate: string; count: number; rows: Row[]; value?: number; unit?: string } | null;
  plan_id: string | null;
  cached: boolean;
  source?: string;
  plan: Plan | null;
  draft_plan?: Plan;
  similarity?: number;
  error?: string;
  language: string;
}
interface Suggestion { id: string; question: string; similarity: number; usage_count: number; is_valid: boolean }
interface Saved {
  id: string;
  question: string;
  language: string;
  plan: Plan;
  source: string;
  usage_count: number;
  is_valid: boolean;
  last_result: { count?: number; value?: number | null; unit?: string | null; aggregate?: string } | null;
  last_error: string | null;
  updated_at: string;
}

export const SUGGEST_DELAY_MS = 200;

export class CrQuestions extends PageElement {
  @state() private question = "";
  @state() private asking = false;
  @state() private answer: Answer | null = null;
  @state() private error: string | null = null;
  @state() private suggestions: Suggestion[] = [];
  @state() private saved: Saved[] = [];
  @state() private total = 0;
  @state() private loadingSaved = false;
  @state() private savedError: string | null = null;
  @state() private editing: string | null = null;
  @state() private editText = "";
  @state() private editError: string | null = null;
  @state() private editNote: string | null = null;
  @state() private confirming: string | null = null;
  private latest = new Latest();
  private scheduleSuggest = debounce(() => this.suggest(), SUGGEST_DELAY_MS);

  connectedCallback(): void {
    super.connectedCallback();
    this.loadSaved();
  }

  disconnectedCallback(): void {
    this.scheduleSuggest.cancel();
    super.disconnectedCallback();
  }

  private async loadSaved() {
    this.loadingSaved = true;
    this.savedError = null;
    try {
      const listed = await call<{ plans: Saved[]; total: number }>(this.hass, "questions/list",
        { limit: 100 });
      this.saved = listed.plans;
      this.total = listed.total;
    } catch (err) {
      this.savedError = this.errorMessage(err);
    } finally {
      this.loadingSaved = false;
    }
  }

  private onInput(e: Event) {
    this.question = (e.target as HTMLInputElement).value;
    if (this.question.trim()) this.scheduleSuggest();
    else { this.scheduleSuggest.cancel(); this.latest.cancel(); this.suggestions = []; }
  }

  private async suggest() {
    const question = this.question.trim();
    if (!question) return;
    try {
      const { current, value } = await this.latest.run(() =>
        call<{ suggestions: Suggestion[] }>(this.hass, "questions/suggest", { question }));
      if (current) this.suggestions = value.suggestions.filter((s) => s.question !== question);
    } catch {
      this.suggestions = []; // suggestions are a help, never an error to show
    }
  }

  private async ask() {
    const question = this.question.trim();
    if (!question || this.asking) return;
    this.asking = true;
    this.error = null;
    this.suggestions = [];
    this.latest.cancel();
    try {
      this.answer = await call<Answer>(this.hass, "questions/ask", { question });
      this.loadSaved();
    } catch (err) {
      this.error = this.errorMessage(err);
    } finally {
      this.asking = false;
    }
  }

  private async setValid(plan: Saved, valid: boolean) {
    try {
      await call(this.hass, "questions/update", { plan_id: plan.id, is_valid: valid });
      await this.loadSaved();
    } catch (err) {
      this.savedError = this.errorMessage(err);
    }
  }

  private startEdit(plan: Saved) {
    if (this.editing === plan.id) { this.cancelEdit(); return; }
    this.editing = plan.id;
    this.editText = JSON.stringify(plan.plan, null, 2);
    this.editError = null;
    this.editNote = null;
  }

  private cancelEdit() {
    this.editing = null; // nothing is sent: the saved plan stays as it was
    this.editText = "";
    this.editError = null;
    this.editNote = null;
  }

  private onEditInput(e: Event) {
    this.editText = (e.target as HTMLTextAreaElement).value;
    const parsed = this.parseEdit();
    this.editError = parsed.error;
    this.editNote = parsed.error ? null : this.t("questions.json_ok");
  }

  /** The edited text as a plan object, or the translated reason it is not one. */
  private parseEdit(): { plan: unknown; error: string | null } {
    let plan: unknown;
    try {
      plan = JSON.parse(this.editText);
    } catch {
      return { plan: null, error: this.t("questions.plan_error.not_json") };
    }
    if (plan === null || typeof plan !== "object" || Array.isArray(plan)) {
      return { plan: null, error: this.t("questions.plan_error.not_object") };
    }
    return { plan, error: null };
  }

  /** A refused plan in the user's words: the validator's reason and where it is. */
  private planError(err: unknown): string {
    const placeholders = (err as { translation_placeholders?: Record<string, string> })
      ?.translation_placeholders;
    const reason = placeholders?.reason;
    const said = this.t(`questions.plan_error.${reason}`, { path: placeholders?.path || "—" });
    return reason && said !== `questions.plan_error.${reason}` ? said : this.errorMessage(err);
  }

  private async saveEdit(plan: Saved) {
    const parsed = this.parseEdit();
    if (parsed.error) {
      this.editError = parsed.error;
      return;
    }
    try {
      await call(this.hass, "questions/update", { plan_id: plan.id, plan: parsed.plan });
      this.cancelEdit();
      await this.loadSaved();
    } catch (err) {
      this.editError = this.planError(err); // the editor stays open with the text as typed
      this.editNote = null;
    }
  }

  private async deletePlan(plan: Saved) {
    try {
      await call(this.hass, "questions/delete", { plan_id: plan.id });
      this.confirming = null;
      await this.loadSaved();
    } catch (err) {
      this.savedError = this.errorMessage(err);
    }
  }

  render() {
    const t = this.t;
    return html`
      <div class="card">
        <h2>${t("questions.heading")}</h2>
        <p class="muted">${t("questions.intro")}</p>
        <div class="row">
          <div class="grow">
            <label for="question">${t("questions.question")}</label>
            <input id="question" type="text" .value=${this.question}
              placeholder=${t("questions.placeholder")} @input=${this.onInput}
              @keydown=${(e: KeyboardEvent) => { if (e.key === "Enter") this.ask(); }} />
          </div>
          <button id="ask" ?disabled=${this.asking || !this.question.trim()} @click=${this.ask}>
            ${t("questions.ask")}</button>
        </div>
        ${this.suggestions.length ? html`<div class="chips" id="suggestions" style="margin-top:8px">
          <span class="muted small">${t("questions.suggestions")}</span>
          ${this.suggestions.map((s) => html`<button class="secondary suggestion" @click=${() => {
            this.question = s.question; this.suggestions = [];
          }}>${s.question} <span class="muted small">${this.percent(s.similarity)}</span></button>`)}
        </div>` : nothing}
        ${this.progress(this.asking)}
        ${this.errorBox(this.error)}
      </div>
      ${this.answer ? this.renderAnswer(this.answer) : nothing}
      ${this.renderSaved()}
    `;
  }

  private renderAnswer(a: Answer) {
    const t = this.t;
    const plan = a.plan ?? a.draft_plan ?? null;
    return html`
      <div class="card" id="answer">
        <div class=${a.success ? "ok-note" : "warning"}><span id="human" class="big-number" style="font-size:20px">${a.human}</span></div>
        <div class="chips" style="margin:8px 0">
          <span class="chip" id="source"><b>${t("questions.source")}</b>
            ${t(`questions.source.${a.error === "command" ? "command" : a.source ?? "none"}`)}</span>
          ${a.similarity !== undefined ? html`<span class="chip"><b>${t("questions.similarity")}</b>
            ${this.percent(a.similarity)}</span>` : nothing}
          ${a.raw ? html`<span class="chip"><b>${t("questions.rows")}</b> ${this.num(a.raw.count)}</span>` : nothing}
        </div>
        ${plan ? html`<h3>${t("questions.plan")}</h3>${this.readablePlan(plan)}` : nothing}
        ${a.raw && a.raw.rows.length ? html`<h3 style="margin-top:12px">${t("questions.raw")}</h3>
          <div class="table-wrap"><table id="rows" class="cards">
            <thead><tr><th>${t("common.entity")}</th><th>${t("common.area")}</th>
              <th>${t("common.state")}</th></tr></thead>
            <tbody>${a.raw.rows.map((r) => html`<tr><td>${r.name}<br><code class="muted">${r.entity_id}</code></td>
              <td>${r.area ?? "—"}</td><td>${r.value !== undefined && r.value !== null
                ? `${r.value}${r.unit ? " " + r.unit : ""}` : this.stateText(r)}</td></tr>`)}</tbody>
          </table></div>` : nothing}
      </div>
    `;
  }

  /** A plan's value as the user reads it: a term, a room, a floor or an entity's name. */
  private term(field: string, value: unknown): string {
    const raw = String(value);
    const hass = this.hass as WithRegistries;
    const localize = (key: string) => hass.localize?.(key) || "";
    // The engine's own terms ("door", "unlocked", "binary_sensor") in the user's language.
    const terms: Record<string, string> = {
      type: this.t(`plan.type.${raw}`),
      status: this.t(`plan.status.${raw}`),
      domain: this.t(`plan.domain.${raw}`),
    };
    if (field in terms) {
      const said = terms[field];
      if (said !== `plan.${field}.${raw}`) return said;
      return (field === "domain" && localize(`component.${raw}.title`)) || raw;
    }
    if (field === "device_class") {
      return localize(`component.binary_sensor.entity_component.${raw}.name`)
        || localize(`component.sensor.entity_component.${raw}.name`) || raw;
    }
    if (field === "area") return hass.areas?.[raw]?.name ?? raw;
    if (field === "floor") return hass.floors?.[raw]?.name ?? raw;
    if (field === "entity_id") return hass.states?.[raw]?.attributes?.friendly_name ?? raw;
    return raw;
  }

  /** A row's state as Home Assistant says it in the user's language ("unlocked" → "已解锁"). */
  private stateText(row: Row): string {
    const hass = this.hass as WithRegistries;
    const live = hass.states?.[row.entity_id];
    if (live && hass.formatEntityState) {
      try {
        const said = hass.formatEntityState(live, row.state);
        if (said) return said;
      } catch {
        // an older frontend: fall through to the panel's own words
      }
    }
    const said = this.t(`plan.status.${row.state}`);
    return said === `plan.status.${row.state}` ? row.state : said;
  }

  private languageName(code: string): string {
    const said = this.t(`language.${code}`);
    return said === `language.${code}` ? code : said;
  }

  private measure(measure: string): string {
    return measure.startsWith("attribute:")
      ? this.t("plan.measure.attribute", { name: measure.slice("attribute:".length) })
      : this.t(`plan.measure.${measure}`);
  }

  private readablePlan(plan: Plan) {
    const t = this.t;
    const value = (f: Filter) => (Array.isArray(f.value) ? f.value : [f.value])
      .map((v) => this.term(f.field, v)).join(t("questions.value_separator"));
    const field = (f: Filter) => f.field === "attribute" && f.attribute
      ? `${t("field.attribute")} ${f.attribute}` : t(`field.${f.field}`);
    return html`<div class="plan">
      ${plan.where.length ? plan.where.map((clause, i) => html`
        ${i > 0 ? html`<div class="op">${t("views.op_or")}</div>` : nothing}
        <div class="chips">${clause.map((f, j) => html`${j > 0
          ? html`<span class="op small">${t("views.op_and")}</span>` : nothing}
          <span class="chip filter">${field(f)} ${t(`plan.op.${f.op}`)} ${value(f)}${f.unit ? " " + f.unit : ""}</span>`)}</div>`)
        : html`<span class="chip">${t("questions.everything")}</span>`}
      <div class="muted small" style="margin-top:6px">${t("questions.aggregate")}:
        ${t(`aggregate.${plan.aggregate}`)}${plan.measure ? ` (${this.measure(plan.measure)})` : ""}
        ${plan.expect ? html` · ${t("questions.expect", { status: this.term("status", plan.expect) })}` : nothing}
        · ${t("questions.limit", { limit: plan.limit })}</div>
    </div>`;
  }

  private renderSaved() {
    const t = this.t;
    return html`
      <div class="card" id="saved">
        <h3>${t("questions.saved", { count: this.num(this.total) })}</h3>
        ${this.progress(this.loadingSaved)}
        ${this.errorBox(this.savedError)}
        ${!this.loadingSaved && !this.saved.length ? html`<p class="muted">${t("questions.none_saved")}</p>` : nothing}
        ${this.saved.map((plan) => html`
          <div class="list-item saved-plan" style="flex-wrap:wrap">
            <div class="grow">
              <div><b>${plan.question}</b> <span class="muted small">${this.languageName(plan.language)}</span></div>
              <div class="chips small" style="margin-top:4px">
                <span class="chip">${t("questions.used", { count: plan.usage_count })}</span>
                <span class="chip ${plan.is_valid ? "in" : "out"}">${plan.is_valid
                  ? t("questions.valid") : t("questions.invalid")}</span>
                ${plan.last_result ? html`<span class="chip">${t("questions.last_result")}:
                  ${plan.last_result.value !== null && plan.last_result.value !== undefined
                    ? `${plan.last_result.value}${plan.last_result.unit ? " " + plan.last_result.unit : ""}`
                    : t("questions.n_rows", { count: plan.last_result.count ?? 0 })}</span>` : nothing}
              </div>
            </div>
            <div class="row">
              <button class="secondary" @click=${() => this.setValid(plan, !plan.is_valid)}>
                ${plan.is_valid ? t("questions.mark_invalid") : t("questions.mark_valid")}</button>
              <button class="secondary edit-plan" @click=${() => this.startEdit(plan)}>${t("common.edit")}</button>
              ${this.confirming === plan.id ? html`
                <button class="danger" @click=${() => this.deletePlan(plan)}>${t("common.delete")}</button>
                <button class="secondary" @click=${() => (this.confirming = null)}>${t("common.cancel")}</button>`
                : html`<button class="secondary delete-plan" @click=${() => (this.confirming = plan.id)}>
                  ${t("common.delete")}</button>`}
            </div>
            ${this.editing === plan.id ? html`<div class="plan-editor" style="flex-basis:100%">
              ${this.readablePlan(plan.plan)}
              <p class="muted small">${t("questions.edit_help")}</p>
              <textarea rows="10" .value=${this.editText} aria-invalid=${this.editError ? "true" : "false"}
                @input=${this.onEditInput}></textarea>
              ${this.editError ? html`<div class="error plan-error" role="alert">${this.editError}</div>` : nothing}
              ${this.editNote ? html`<div class="muted small plan-note">${this.editNote}</div>` : nothing}
              <div class="row">
                <button class="save-plan" ?disabled=${!!this.editError} @click=${() => this.saveEdit(plan)}>${t("common.save")}</button>
                <button class="secondary cancel-edit" @click=${() => this.cancelEdit()}>${t("common.cancel")}</button>
              </div></div>` : nothing}
          </div>`)}
      </div>
    `;
  }

  static styles = [shared];
}
