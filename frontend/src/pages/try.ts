// Try it: what the assistant would be told for an utterance, and why.
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { call } from "../api";
import { PageElement, bar } from "../page";
import { shared } from "../styles";

interface Candidate {
  entity_id: string;
  name: string;
  area: string | null;
  score: number;
  score_breakdown: Record<string, number>;
  reasons: string[];
  reason_codes?: ReasonCode[];
  explain?: Record<string, number> | null;
}

/** One reason as the backend codes it (`core.base.models.Reason`). */
interface ReasonCode {
  code: string;
  said?: string;
  matched?: string;
  field?: string;
  score?: number;
}

interface Parsed {
  action: string | null;
  quantifier: string;
  confidence: number;
  scope_in: string[];
  scope_out: string[];
  types: string[];
  types_out: string[];
  mentions: string[];
  mentions_out: string[];
  labels: string[];
  states: string[];
  references: string[];
  reference: string | null;
  here: boolean;
  scope_removed: number;
  excluded: number;
  capability_filter: string | null;
  capability_removed: { entity_id: string; name: string }[];
  capability_removed_count: number;
  gating: "selected" | "ask" | "nothing";
}

interface Command {
  text: string;
  selected: Candidate[];
  candidates: Candidate[];
  clarification: { question: string; options: { entity_id: string; label: string }[] } | null;
  meta: Record<string, unknown>;
  parsed: Parsed;
}

interface TryAnswer {
  language: string;
  commands: Command[];
  yaml: string;
  yaml_tokens: number;
  assist_tokens: number | null;
  entities: number;
  milliseconds: number;
}

const LANGUAGES = ["", "en", "zh", "de", "es", "fr", "ru"];

export class CrTry extends PageElement {
  @state() private text = "";
  @state() private language = "";
  @state() private keepConversation = false;
  @state() private busy = false;
  @state() private error: string | null = null;
  @state() private answer: TryAnswer | null = null;
  private conversationId = CrTry.newConversation();

  private static newConversation(): string {
    return `panel-${Math.random().toString(36).slice(2, 10)}`;
  }

  private async run() {
    const text = this.text.trim();
    if (!text || this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      const payload: Record<string, unknown> = { text };
      if (this.language) payload.language = this.language;
      if (this.keepConversation) payload.conversation_id = this.conversationId;
      this.answer = await call<TryAnswer>(this.hass, "try", payload);
    } catch (err) {
      this.error = this.errorMessage(err);
    } finally {
      this.busy = false;
    }
  }

  private onKey(ev: KeyboardEvent) {
    if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      this.run();
    }
  }

  render() {
    const t = this.t;
    return html`
      <div class="card">
        <h2>${t("try.heading")}</h2>
        <p class="muted">${t("try.intro")}</p>
        <div class="row">
          <div class="grow">
            <label for="utterance">${t("try.utterance")}</label>
            <input id="utterance" type="text" .value=${this.text} placeholder=${t("try.placeholder")}
              @input=${(e: Event) => (this.text = (e.target as HTMLInputElement).value)}
              @keydown=${this.onKey} />
          </div>
          <div>
            <label for="language">${t("common.language")}</label>
            <select id="language" .value=${this.language}
              @change=${(e: Event) => (this.language = (e.target as HTMLSelectElement).value)}>
              ${LANGUAGES.map((l) => html`<option value=${l} ?selected=${l === this.language}>
                ${l ? t(`language.${l}`) : t("language.auto")}</option>`)}
            </select>
          </div>
          <button id="run" ?disabled=${this.busy || !this.text.trim()} @click=${this.run}>
            ${t("try.run")}</button>
        </div>
        <div class="row small" style="margin-top:8px">
          <label class="row" style="font-size:13px;color:var(--primary-text-color)">
            <input type="checkbox" .checked=${this.keepConversation}
              @change=${(e: Event) => (this.keepConversation = (e.target as HTMLInputElement).checked)} />
            ${t("try.keep_conversation")}
          </label>
          ${this.keepConversation ? html`<button class="secondary" @click=${() => {
            this.conversationId = CrTry.newConversation();
          }}>${t("try.new_conversation")}</button>` : nothing}
        </div>
        ${this.progress(this.busy)}
        ${this.errorBox(this.error)}
      </div>
      ${this.answer ? this.renderAnswer(this.answer) : nothing}
    `;
  }

  private renderAnswer(answer: TryAnswer) {
    const t = this.t;
    return html`
      <div class="card" id="tokens">
        <div class="row" style="justify-content:space-between">
          <div>
            <div class="big-number">${answer.assist_tokens !== null
              ? t("try.tokens_instead", { ours: this.num(answer.yaml_tokens),
                  assist: this.num(answer.assist_tokens) })
              : t("try.tokens_only", { ours: this.num(answer.yaml_tokens) })}</div>
            <div class="muted small">${t("try.tokens_note", { entities: this.num(answer.entities) })}</div>
          </div>
          <div class="muted small">${t("try.detected", { language: answer.language || "—",
            ms: this.num(answer.milliseconds, 1) })}</div>
        </div>
      </div>
      ${answer.commands.map((command, i) => this.renderCommand(command, i, answer.commands.length))}
      <div class="card">
        <h3>${t("try.yaml_heading")} <span class="muted small">
          ${t("try.tokens", { count: this.num(answer.yaml_tokens) })}</span></h3>
        ${answer.yaml ? html`<pre id="yaml">${answer.yaml}</pre>`
          : html`<p class="muted" id="yaml-empty">${t("try.yaml_empty")}</p>`}
      </div>
    `;
  }

  private renderCommand(command: Command, i: number, total: number) {
    const t = this.t;
    const p = command.parsed;
    const selected = new Set(command.selected.map((c) => c.entity_id));
    const chip = (label: string, values: string[], kind = "") => values.length
      ? html`<span class="chip ${kind}"><b>${label}</b> ${values.join(", ")}</span>` : nothing;
    return html`
      <div class="card command">
        <h3>${total > 1 ? t("try.command_n", { n: i + 1 }) : t("try.command")}:
          <span class="muted">“${command.text}”</span></h3>
        <div class="chips" id="parsed">
          <span class="chip"><b>${t("try.action")}</b> ${p.action ?? "—"}</span>
          <span class="chip"><b>${t("try.quantifier")}</b> ${t(`quantifier.${p.quantifier}`)}</span>
          ${chip(t("try.scope_in"), p.scope_in, "in")}
          ${chip(t("try.scope_out"), p.scope_out, "out")}
          ${chip(t("try.types"), p.types)}
          ${chip(t("try.types_out"), p.types_out, "out")}
          ${chip(t("try.mentions"), p.mentions)}
          ${chip(t("try.mentions_out"), p.mentions_out, "out")}
          ${chip(t("try.labels"), p.labels)}
          ${chip(t("try.states"), p.states)}
          ${chip(t("try.references"), p.references.length ? p.references : (p.reference ? [p.reference] : []))}
          <span class="chip"><b>${t("try.confidence")}</b> ${this.num(p.confidence, 2)}</span>
        </div>
        <div class="removed small" style="margin-top:10px">
          <div>${t("try.scope_removed", { count: this.num(p.scope_removed) })}
            ${p.excluded ? t("try.excluded", { count: this.num(p.excluded) }) : nothing}</div>
          <div>${p.capability_removed_count
            ? t("try.capability_removed", { count: this.num(p.capability_removed_count),
                names: p.capability_removed.map((r) => r.name).join(", ") })
            : t("try.capability_none")}
            <span class="muted">(${t(`try.capability_${p.capability_filter === "hard" ? "hard" : "soft"}`)})</span></div>
        </div>
        <div class="gating" style="margin-top:10px">${this.renderGating(command)}</div>
        ${command.candidates.length ? html`
          <div class="table-wrap" style="margin-top:12px">
            <table class="candidates cards">
              <thead><tr>
                <th>${t("common.entity")}</th>
                <th class="hide-narrow">${t("common.area")}</th>
                <th>${t("common.score")}</th>
                <th>${t("try.breakdown")}</th>
                <th>${t("try.reasons")}</th>
              </tr></thead>
              <tbody>${command.candidates.map((c) => html`
                <tr class=${selected.has(c.entity_id) ? "selected" : ""}>
                  <td>${selected.has(c.entity_id) ? "✓ " : ""}${c.name}<br>
                    <code class="muted">${c.entity_id}</code></td>
                  <td class="hide-narrow">${c.area ?? "—"}</td>
                  <td>${this.num(c.score, 3)}</td>
                  <td>${this.breakdown(c)}</td>
                  <td class="small">${this.reasons(c)}</td>
                </tr>`)}
              </tbody>
            </table>
          </div>` : nothing}
      </div>
    `;
  }

  /** The candidate's reasons in the user's language; a code this panel does not know yet is
   * shown as the backend's English sentence. */
  private reasons(c: Candidate): string {
    const t = this.t;
    const codes = c.reason_codes ?? [];
    return c.reasons.map((english, i) => {
      const r = codes[i];
      if (!r) return english;
      const field = r.field ? t(`try.reason_field.${r.field}`) : "";
      const said = t(`try.reason.${r.code}`, {
        said: r.code === "type" ? this.typeWords(r.said ?? "")
          : r.code === "state" ? this.stateWords(r.said ?? "") : (r.said ?? ""),
        matched: r.matched ?? "",
        field: field.startsWith("try.") ? (r.field ?? "") : field,
        score: r.score === undefined ? "" : this.num(r.score, 2),
      });
      return said.startsWith("try.reason.") ? english : said;
    }).join("; ");
  }

  /** "light+switch" as the user's words for those kinds. */
  private typeWords(types: string): string {
    return types.split("+").map((x) => {
      const said = this.t(`plan.type.${x}`);
      return said === `plan.type.${x}` ? x : said;
    }).join(" / ");
  }

  /** "off/on" as the user's words for those states. */
  private stateWords(states: string): string {
    return states.split("/").map((x) => {
      const said = this.t(`plan.status.${x}`);
      return said === `plan.status.${x}` ? x : said;
    }).join(" / ");
  }

  private breakdown(c: Candidate) {
    const t = this.t;
    const e = c.explain;
    const b = c.score_breakdown;
    // The pipeline's own fusion (what decided), then the search scale (to compare candidates).
    const fused = b && b.keyword !== undefined && b.vector !== undefined
      ? html`<div class="small muted fusion">${t("try.fusion", {
          keyword: this.num(b.keyword, 2), kw: this.num(b.keyword_weight ?? 1, 2),
          vector: this.num(b.vector, 2), vw: this.num(b.vector_weight ?? 0, 2),
          total: this.num(b.total ?? c.score, 3) })}</div>` : nothing;
    if (!e) return fused || html`<span class="muted">—</span>`;
    return html`${fused}<div class="bars">
      <span>${t("score.keyword")}</span>${bar(e.keyword)}<span>${this.num(e.keyword, 2)}</span>
      <span>${t("score.semantic")}</span>${bar(e.semantic, "semantic")}<span>${this.num(e.semantic, 2)}</span>
      <span>${t("score.recency")}</span>${bar(e.recency, "recency")}<span>${this.num(e.recency, 2)}</span>
    </div>`;
  }

  private renderGating(command: Command) {
    const t = this.t;
    if (command.clarification) {
      return html`<div class="warning" id="question"><b>${t("try.gating_ask")}</b>
        “${command.clarification.question}”
        <ul>${command.clarification.options.map((o) => html`<li>${o.label}
          <code class="muted">${o.entity_id}</code></li>`)}</ul></div>`;
    }
    if (command.selected.length) {
      return html`<div class="ok-note"><b>${t("try.gating_selected", { count: command.selected.length })}</b>
        ${command.selected.map((c) => c.name).join(", ")}</div>`;
    }
    return html`<div class="warning"><b>${t("try.gating_nothing")}</b></div>`;
  }

  static styles = [shared];
}
