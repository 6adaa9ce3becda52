// Views: view rules over labels, with a live preview while typing, publish, revisions with a
// diff and one-click rollback, delete with confirmation.
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { Latest, call, debounce, errorPosition } from "../api";
import { diffWords } from "../diff";
import { PageElement } from "../page";
import { shared } from "../styles";

interface Rule {
  name: string;
  rule: string;
  rule_json: string;
  compile_source: string;
  rewrite_note: string | null;
  last_error: string | null;
  updated_at: string;
  entity_hits: number;
  entity_id: string | null;
}

interface Revision {
  id: string;
  rule_nl: string;
  rule_json: string;
  compile_source: string;
  rewrite_note: string | null;
  created_at: string;
}

interface Preview {
  ok: boolean;
  rule_json?: string;
  compile_source?: string;
  rewrite_note?: string;
  warnings?: string[];
  total_hits: number;
  entity_hits: number;
  device_hits: number;
  sample_items: { id: string; name?: string; area?: string | null }[];
  unresolved_tags: string[];
  suggestions?: Record<string, string[]> | string[];
  milliseconds: number;
}

interface Node {
  kind: "tag" | "group";
  tag?: string;
  op?: string;
  children?: Node[];
}

export const PREVIEW_DELAY_MS = 150;

export class CrViews extends PageElement {
  @state() private rules: Rule[] = [];
  @state() private loading = false;
  @state() private listError: string | null = null;
  @state() private editing: string | null = null; // the published name being edited; "" new
  @state() private name = "";
  @state() private text = "";
  @state() private preview: Preview | null = null;
  @state() private previewError: string | null = null;
  @state() private previewPosition: number | null = null;
  @state() private previewing = false;
  @state() private publishing = false;
  @state() private message: string | null = null;
  @state() private actionError: string | null = null;
  @state() private revisions: Revision[] = [];
  @state() private confirmDelete = false;
  private latest = new Latest();
  private schedulePreview = debounce(() => this.runPreview(), PREVIEW_DELAY_MS);

  connectedCallback(): void {
    super.connectedCallback();
    this.load();
  }

  disconnectedCallback(): void {
    this.schedulePreview.cancel();
    super.disconnectedCallback();
  }

  private async load() {
    this.loading = true;
    this.listError = null;
    try {
      this.rules = (await call<{ rules: Rule[] }>(this.hass, "views/list")).rules;
    } catch (err) {
      this.listError = this.errorMessage(err);
    } finally {
      this.loading = false;
    }
  }

  private startNew() {
    this.editing = "";
    this.name = "";
    this.text = "";
    this.preview = null;
    this.previewError = null;
    this.revisions = [];
    this.message = null;
    this.actionError = null;
    this.confirmDelete = false;
  }

  private async edit(rule: Rule) {
    this.editing = rule.name;
    this.name = rule.name;
    this.text = rule.rule;
    this.message = null;
    this.actionError = null;
    this.confirmDelete = false;
    this.runPreview();
    this.loadRevisions(rule.name);
  }

  private async loadRevisions(name: string) {
    try {
      this.revisions = (await call<{ revisions: Revision[] }>(this.hass, "views/revisions",
        { name })).revisions;
    } catch (err) {
      this.revisions = [];
      this.actionError = this.errorMessage(err);
    }
  }

  private onRuleInput(e: Event) {
    this.text = (e.target as HTMLTextAreaElement).value;
    this.message = null;
    this.actionError = null;
    if (!this.text.trim()) {
      this.schedulePreview.cancel();
      this.latest.cancel();
      this.preview = null;
      this.previewError = null;
      this.previewing = false;
      return;
    }
    this.previewing = true;
    this.schedulePreview();
  }

  private async runPreview() {
    const rule = this.text;
    if (!rule.trim()) return;
    this.previewing = true;
    try {
      const { current, value } = await this.latest.run(() =>
        call<Preview>(this.hass, "views/preview", { rule }).then(
          (preview) => ({ preview, error: null as unknown }),
          (error: unknown) => ({ preview: null, error })));
      if (!current) return;
      this.preview = value.preview;
      this.previewError = value.error ? this.errorMessage(value.error) : null;
      this.previewPosition = value.error ? errorPosition(value.error) : null;
      this.previewing = false;
    } catch (err) {
      this.previewError = this.errorMessage(err);
      this.previewing = false;
    }
  }

  private async publish() {
    if (!this.name.trim() || !this.text.trim()) return;
    this.publishing = true;
    this.message = null;
    this.actionError = null;
    try {
      const result = await call<{ name: string; entity_hits: number }>(this.hass,
        "views/publish", { name: this.name, rule: this.text });
      this.editing = result.name;
      this.name = result.name;
      this.message = this.t("views.published", { name: result.name, count: result.entity_hits });
      await Promise.all([this.load(), this.loadRevisions(result.name)]);
    } catch (err) {
      this.actionError = this.errorMessage(err);
    } finally {
      this.publishing = false;
    }
  }

  private async rollback(revision: Revision) {
    if (!this.editing) return;
    this.publishing = true;
    try {
      const rule = await call<Rule>(this.hass, "views/rollback",
        { name: this.editing, revision_id: revision.id });
      this.text = rule.rule;
      this.message = this.t("views.rolled_back", { name: rule.name });
      await Promise.all([this.load(), this.loadRevisions(rule.name)]);
      this.runPreview();
    } catch (err) {
      this.actionError = this.errorMessage(err);
    } finally {
      this.publishing = false;
    }
  }

  private async deleteRule() {
    if (!this.editing) return;
    this.publishing = true;
    try {
      await call(this.hass, "views/delete", { name: this.editing });
      this.message = this.t("views.deleted", { name: this.editing });
      this.editing = null;
      this.confirmDelete = false;
      await this.load();
    } catch (err) {
      this.actionError = this.errorMessage(err);
    } finally {
      this.publishing = false;
    }
  }

  render() {
    const t = this.t;
    return html`
      <div class="card">
        <div class="row" style="justify-content:space-between">
          <h2>${t("views.heading")}</h2>
          <button id="new-rule" @click=${this.startNew}>${t("views.new")}</button>
        </div>
        <p class="muted">${t("views.intro")}</p>
        ${this.progress(this.loading)}
        ${this.errorBox(this.listError)}
        ${this.editing === null ? this.notes() : nothing}
        ${!this.loading && !this.rules.length && !this.listError
          ? html`<p class="muted" id="no-rules">${t("views.empty")}</p>` : nothing}
        <div id="rules">${this.rules.map((rule) => html`
          <div class="list-item clickable rule" @click=${() => this.edit(rule)}>
            <div class="grow">
              <div><b>${rule.name}</b> <span class="muted small">${rule.entity_id ?? ""}</span></div>
              <code class="muted">${rule.rule}</code>
              ${rule.last_error ? html`<div class="error small">${rule.last_error}</div>` : nothing}
            </div>
            <div class="chip">${t("views.members", { count: this.num(rule.entity_hits) })}</div>
          </div>`)}
        </div>
      </div>
      ${this.editing !== null ? this.renderEditor() : nothing}
    `;
  }

  private renderEditor() {
    const t = this.t;
    const p = this.preview;
    return html`
      <div class="card" id="editor">
        <h3>${this.editing ? t("views.edit", { name: this.editing }) : t("views.create")}</h3>
        <div class="row">
          <div class="grow">
            <label for="rule-name">${t("views.name")}</label>
            <input id="rule-name" type="text" .value=${this.name}
              @input=${(e: Event) => (this.name = (e.target as HTMLInputElement).value)} />
          </div>
        </div>
        <div style="margin-top:8px">
          <label for="rule-text">${t("views.rule")}</label>
          <textarea id="rule-text" rows="2" .value=${this.text} placeholder=${t("views.rule_placeholder")}
            @input=${this.onRuleInput}></textarea>
          <div class="muted small">${t("views.rule_help")}</div>
        </div>
        ${this.progress(this.previewing)}
        ${this.previewError ? html`<div class="error" id="preview-error" role="alert">
          ${this.previewError}
          ${this.previewPosition ? this.marked(this.text, this.previewPosition) : nothing}</div>` : nothing}
        ${p && !this.previewError ? this.renderPreview(p) : nothing}
        <div class="row" style="margin-top:12px">
          <button id="publish" ?disabled=${this.publishing || !this.name.trim() || !this.text.trim()}
            @click=${this.publish}>${t("views.publish")}</button>
          ${this.editing ? (this.confirmDelete ? html`
            <span>${t("views.confirm_delete", { name: this.editing })}</span>
            <button class="danger" id="confirm-delete" @click=${this.deleteRule}>${t("common.delete")}</button>
            <button class="secondary" @click=${() => (this.confirmDelete = false)}>${t("common.cancel")}</button>`
            : html`<button class="secondary" id="delete" @click=${() => (this.confirmDelete = true)}>
                ${t("common.delete")}</button>`) : nothing}
        </div>
        ${this.progress(this.publishing)}
        ${this.notes()}
      </div>
      ${this.editing ? this.renderRevisions() : nothing}
    `;
  }

  private notes() {
    return html`${this.errorBox(this.actionError)}${this.message
      ? html`<div class="ok-note" id="views-message">${this.message}</div>` : nothing}`;
  }

  private marked(text: string, position: number) {
    // The caret sits under the character: a hidden copy of the text before it takes up the
    // same width, whatever the script (CJK characters are wider than Latin ones).
    const at = Math.min(Math.max(position - 1, 0), text.length);
    return html`<pre class="position">${text.slice(0, at)}<u class="caret">${text.slice(at, at + 1) || " "}</u>${text.slice(at + 1)}
<span style="visibility:hidden">${text.slice(0, at)}</span><span class="caret">^ ${this.t("views.position", { position })}</span></pre>`;
  }

  private renderPreview(p: Preview) {
    const t = this.t;
    let tree: Node | null = null;
    try { tree = p.rule_json ? (JSON.parse(p.rule_json) as Node) : null; } catch { tree = null; }
    return html`
      <div id="preview" style="margin-top:12px">
        <div class="stats">
          <div class="stat"><div class="label">${t("views.total_hits")}</div>
            <div class="big-number" id="total-hits">${this.num(p.total_hits)}</div></div>
          <div class="stat"><div class="label">${t("views.entity_hits")}</div>
            <div class="big-number">${this.num(p.entity_hits)}</div></div>
          <div class="stat"><div class="label">${t("views.device_hits")}</div>
            <div class="big-number">${this.num(p.device_hits)}</div></div>
          <div class="stat"><div class="label">${t("views.compiled_by")}</div>
            <div>${t(`views.source.${p.compile_source ?? "deterministic"}`)}</div>
            <div class="muted small">${this.num(p.milliseconds, 1)} ms</div></div>
        </div>
        ${p.rewrite_note ? html`<div class="warning">${t("views.rewrite_note")}: ${p.rewrite_note}</div>` : nothing}
        ${p.unresolved_tags?.length ? html`<div class="warning">${t("views.unresolved",
          { tags: p.unresolved_tags.join(", ") })}</div>` : nothing}
        <div class="row" style="align-items:flex-start;margin-top:8px">
          <div class="grow">
            <h3>${t("views.tree")}</h3>
            <div class="tree">${tree ? html`<ul>${this.node(tree)}</ul>` : nothing}</div>
          </div>
          <div class="grow">
            <h3>${t("views.json")}</h3>
            <pre id="rule-json">${p.rule_json ? JSON.stringify(JSON.parse(p.rule_json), null, 2) : ""}</pre>
          </div>
        </div>
        <h3 style="margin-top:12px">${t("views.samples")}</h3>
        ${p.sample_items.length ? html`<div class="table-wrap"><table id="samples" class="cards">
          <thead><tr><th>${t("common.entity")}</th><th>${t("common.area")}</th></tr></thead>
          <tbody>${p.sample_items.map((s) => html`<tr><td>${s.name ?? ""}
            <br><code class="muted">${s.id}</code></td><td>${s.area ?? "—"}</td></tr>`)}</tbody>
        </table></div>` : html`<p class="muted">${t("views.no_samples")}</p>`}
      </div>
    `;
  }

  private node(node: Node): unknown {
    if (node.kind === "tag") return html`<li><span class="chip">${node.tag}</span></li>`;
    const op = node.op === "OR" ? this.t("views.op_or")
      : node.op === "NOT" ? this.t("views.op_not") : this.t("views.op_and");
    return html`<li><span class="op">${op}</span><ul>${(node.children ?? []).map((c) => this.node(c))}</ul></li>`;
  }

  private renderRevisions() {
    const t = this.t;
    const current = this.revisions[0];
    return html`
      <div class="card" id="revisions">
        <h3>${t("views.revisions")}</h3>
        ${this.revisions.length ? nothing : html`<p class="muted">${t("views.no_revisions")}</p>`}
        ${this.revisions.map((revision, i) => html`
          <div class="list-item revision">
            <div class="grow">
              <div class="small muted">${new Date(revision.created_at).toLocaleString(
                this.uiLang === "zh-Hans" ? "zh-CN" : "en-US")}
                · ${t(`views.source.${revision.compile_source}`)}
                ${i === 0 ? html`· <b>${t("views.current")}</b>` : nothing}</div>
              <code>${i === 0 || !current ? revision.rule_nl : diffWords(current.rule_nl, revision.rule_nl).map(
                (piece) => html`<span class=${piece.kind === "same" ? "" : `diff-${piece.kind}`}>${piece.text}</span>`)}</code>
            </div>
            ${i > 0 ? html`<button class="secondary rollback" ?disabled=${this.publishing}
              @click=${() => this.rollback(revision)}>${t("views.rollback")}</button>` : nothing}
          </div>`)}
      </div>
    `;
  }

  static styles = [shared];
}
