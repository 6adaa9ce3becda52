// Rename: bulk find/replace over names and aliases with a preview (old → new, conflicts
// marked), apply (a snapshot is saved first) and rollback.
import { css, html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { Latest, call, debounce } from "../api";
import { PageElement } from "../page";
import { shared } from "../styles";

interface Change { entity_id: string; area: string | null; field: string; index: number | null; before: string; after: string; matches: number }
interface Skipped { entity_id: string; field: string; index?: number; reason: string }
interface Plan { entities: number; matches: number; truncated: boolean; changes: Change[]; skipped: Skipped[] }
interface Snapshot { id: string; created_at: string; find: string; entities: number }

export const RENAME_DELAY_MS = 250;

export class CrRename extends PageElement {
  @state() private find = "";
  @state() private replace = "";
  @state() private target = "names";
  @state() private matchCase = false;
  // Whole words by default: "台灯" must not reach into the balcony light 阳台灯.
  @state() private wholeWord = true;
  // Entities unticked in the preview: left out when the rename is applied.
  @state() private excluded = new Set<string>();
  @state() private regex = false;
  @state() private plan: Plan | null = null;
  @state() private previewing = false;
  @state() private applying = false;
  @state() private error: string | null = null;
  @state() private message: string | null = null;
  @state() private snapshots: Snapshot[] = [];
  private latest = new Latest();
  private schedulePreview = debounce(() => this.preview(), RENAME_DELAY_MS);

  connectedCallback(): void {
    super.connectedCallback();
    this.loadSnapshots();
  }

  disconnectedCallback(): void {
    this.schedulePreview.cancel();
    super.disconnectedCallback();
  }

  private spec() {
    return { find: this.find, replace: this.replace, target: this.target,
             match_case: this.matchCase, whole_word: this.wholeWord, regex: this.regex,
             exclude: [...this.excluded] };
  }

  private changed() {
    this.message = null;
    this.excluded = new Set();
    if (!this.find) {
      this.schedulePreview.cancel();
      this.latest.cancel();
      this.plan = null;
      this.error = null;
      this.previewing = false;
      return;
    }
    this.previewing = true;
    this.schedulePreview();
  }

  private async preview() {
    if (!this.find) return;
    const spec = this.spec();
    const { current, value } = await this.latest.run(() => call<Plan>(this.hass, "rename/preview", { ...spec, exclude: [] })
      .then((plan) => ({ plan, error: null as unknown }), (error: unknown) => ({ plan: null, error })));
    if (!current) return;
    this.previewing = false;
    this.plan = value.plan;
    this.error = value.error ? this.errorMessage(value.error) : null;
  }

  private async loadSnapshots() {
    try {
      this.snapshots = (await call<{ snapshots: Snapshot[] }>(this.hass, "rename/snapshots")).snapshots;
    } catch (err) {
      this.error = this.errorMessage(err);
    }
  }

  private async apply() {
    if (!this.plan || !this.plan.changes.length) return;
    this.applying = true;
    this.error = null;
    try {
      const done = await call<Plan & { snapshot_id: string | null }>(this.hass, "rename/execute", this.spec());
      this.message = this.t("rename.applied", { count: done.entities });
      this.plan = null;
      this.excluded = new Set();
      await this.loadSnapshots();
    } catch (err) {
      this.error = this.errorMessage(err);
    } finally {
      this.applying = false;
    }
  }

  private async rollback(snapshot: Snapshot) {
    this.applying = true;
    this.error = null;
    try {
      const done = await call<{ restored: number; missing: string[] }>(this.hass, "rename/rollback",
        { snapshot_id: snapshot.id });
      this.message = this.t("rename.rolled_back", { count: done.restored });
      if (this.find) this.preview();
    } catch (err) {
      this.error = this.errorMessage(err);
    } finally {
      this.applying = false;
    }
  }

  render() {
    const t = this.t;
    const check = (label: string, value: boolean, set: (v: boolean) => void, id: string) => html`
      <label class="row" style="font-size:13px;color:var(--primary-text-color)">
        <input type="checkbox" id=${id} .checked=${value}
          @change=${(e: Event) => { set((e.target as HTMLInputElement).checked); this.changed(); }} />${label}</label>`;
    return html`
      <div class="card">
        <h2>${t("rename.heading")}</h2>
        <p class="muted">${t("rename.intro")}</p>
        <div class="row">
          <div class="grow"><label for="find">${t("rename.find")}</label>
            <input id="find" type="text" .value=${this.find}
              @input=${(e: Event) => { this.find = (e.target as HTMLInputElement).value; this.changed(); }} /></div>
          <div class="grow"><label for="replace">${t("rename.replace")}</label>
            <input id="replace" type="text" .value=${this.replace}
              @input=${(e: Event) => { this.replace = (e.target as HTMLInputElement).value; this.changed(); }} /></div>
          <div><label for="target">${t("rename.target")}</label>
            <select id="target" @change=${(e: Event) => { this.target = (e.target as HTMLSelectElement).value; this.changed(); }}>
              ${["names", "aliases", "both"].map((v) => html`<option value=${v} ?selected=${v === this.target}>
                ${t(`rename.target.${v}`)}</option>`)}</select></div>
        </div>
        <div class="row" style="margin-top:8px">
          ${check(t("rename.match_case"), this.matchCase, (v) => (this.matchCase = v), "match-case")}
          ${check(t("rename.whole_word"), this.wholeWord, (v) => (this.wholeWord = v), "whole-word")}
          ${check(t("rename.regex"), this.regex, (v) => (this.regex = v), "regex")}
        </div>
        ${this.progress(this.previewing || this.applying)}
        ${this.errorBox(this.error)}
        ${this.message ? html`<div class="ok-note" id="rename-message">${this.message}</div>` : nothing}
      </div>
      ${this.plan ? this.renderPlan(this.plan) : nothing}
      ${this.renderSnapshots()}
    `;
  }

  private toggle(entityId: string, kept: boolean) {
    const next = new Set(this.excluded);
    if (kept) next.delete(entityId); else next.add(entityId);
    this.excluded = next;
  }

  private renderPlan(plan: Plan) {
    const t = this.t;
    const kept = plan.changes.filter((c) => !this.excluded.has(c.entity_id)).length;
    const afterCount = new Map<string, number>();
    for (const c of plan.changes) {
      if (c.field === "name") afterCount.set(c.after.toLowerCase(), (afterCount.get(c.after.toLowerCase()) ?? 0) + 1);
    }
    return html`
      <div class="card" id="rename-preview">
        <div class="row" style="justify-content:space-between">
          <h3>${t("rename.preview", { entities: this.num(plan.entities), matches: this.num(plan.matches) })}</h3>
          <button id="apply" ?disabled=${this.applying || !kept || plan.truncated}
            @click=${this.apply}>${t("rename.apply")}</button>
        </div>
        ${plan.truncated ? html`<div class="warning">${t("rename.truncated")}</div>` : nothing}
        ${plan.changes.length || plan.skipped.length ? html`<div class="table-wrap"><table class="rename">
          <thead><tr><th>${t("rename.keep")}</th><th>${t("common.entity")}</th><th>${t("rename.room")}</th><th>${t("rename.field")}</th>
            <th>${t("rename.before")}</th><th></th><th>${t("rename.after")}</th></tr></thead>
          <tbody>
            ${plan.changes.map((c) => {
              const duplicate = c.field === "name" && (afterCount.get(c.after.toLowerCase()) ?? 0) > 1;
              const keep = !this.excluded.has(c.entity_id);
              return html`<tr class="change ${duplicate ? "conflict" : ""} ${keep ? "" : "left-out"}">
                <td><input type="checkbox" class="keep" aria-label=${t("rename.keep")} .checked=${keep}
                  @change=${(e: Event) => this.toggle(c.entity_id, (e.target as HTMLInputElement).checked)} /></td>
                <td><code class="small">${c.entity_id}</code></td>
                <td class="room">${c.area ?? "—"}</td>
                <td>${t(`rename.field.${c.field}`)}</td>
                <td>${c.before}</td><td class="arrow">→</td>
                <td>${c.after} ${duplicate ? html`<span class="chip out">${t("rename.conflict.same_name")}</span>` : nothing}</td>
              </tr>`;
            })}
            ${plan.skipped.map((s) => html`<tr class="conflict">
              <td></td><td><code class="small">${s.entity_id}</code></td><td></td><td>${t(`rename.field.${s.field}`)}</td>
              <td colspan="3"><span class="chip out">${t(`rename.conflict.${s.reason}`)}</span></td></tr>`)}
          </tbody></table></div>` : html`<p class="muted">${t("rename.nothing")}</p>`}
      </div>
    `;
  }

  private renderSnapshots() {
    const t = this.t;
    return html`
      <div class="card" id="snapshots">
        <h3>${t("rename.snapshots")}</h3>
        ${this.snapshots.length ? nothing : html`<p class="muted">${t("rename.no_snapshots")}</p>`}
        ${this.snapshots.map((s) => html`<div class="list-item snapshot">
          <div class="grow">${t("rename.snapshot", { find: s.find, count: s.entities })}
            <div class="muted small">${new Date(s.created_at).toLocaleString(this.uiLang === "zh-Hans" ? "zh-CN" : "en-US")}</div></div>
          <button class="secondary rollback" ?disabled=${this.applying} @click=${() => this.rollback(s)}>
            ${t("rename.rollback")}</button></div>`)}
      </div>
    `;
  }

  static styles = [shared, css`
    tr.left-out td { opacity: 0.5; text-decoration: line-through; }
    tr.left-out td:first-child { text-decoration: none; opacity: 1; }
    /* At phone width each change is a small card of its own lines, never a table squeezed
       to a character per line. */
    @media (max-width: 600px) {
      table.rename thead { display: none; }
      table.rename tr { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px;
        padding: 8px 0; border-bottom: 1px solid var(--divider-color, rgba(127, 127, 127, 0.3)); }
      table.rename td { display: block; border: none; padding: 0; overflow-wrap: anywhere; }
      table.rename td:first-child { grid-row: span 6; }
      table.rename td.arrow { display: none; }
    }
  `];
}
