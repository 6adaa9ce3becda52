// Looks like Home Assistant: its theme variables (light and dark), its card shapes, its
// spacing; nothing here hard-codes a colour without a theme variable in front of it.
import { css } from "lit";

export const shared = css`
  :host {
    display: block;
    color: var(--primary-text-color);
    font-family: var(--paper-font-body1_-_font-family, var(--ha-font-family-body, Roboto, sans-serif));
    font-size: 14px;
  }
  .card {
    background: var(--ha-card-background, var(--card-background-color, #fff));
    border-radius: var(--ha-card-border-radius, 12px);
    border: 1px solid var(--ha-card-border-color, var(--divider-color, #e0e0e0));
    box-shadow: var(--ha-card-box-shadow, none);
    padding: 16px;
    margin-bottom: 16px;
  }
  .card h2, .card h3 {
    margin: 0 0 12px;
    font-weight: 500;
  }
  h2 { font-size: 20px; }
  h3 { font-size: 16px; }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
  }
  .grow { flex: 1 1 240px; min-width: 0; }
  label { color: var(--secondary-text-color); font-size: 12px; display: block; }
  input[type="text"], input[type="number"], input:not([type]), textarea, select {
    box-sizing: border-box;
    width: 100%;
    font: inherit;
    color: var(--primary-text-color);
    background: var(--secondary-background-color, #f5f5f5);
    border: 1px solid var(--divider-color, #ccc);
    border-bottom: 2px solid var(--secondary-text-color, #888);
    border-radius: 4px 4px 0 0;
    padding: 10px 12px;
    outline: none;
  }
  input:focus, textarea:focus, select:focus {
    border-bottom-color: var(--primary-color, #03a9f4);
  }
  textarea { resize: vertical; min-height: 64px; font-family: var(--code-font-family, monospace); }
  input[type="checkbox"] { accent-color: var(--primary-color); }
  button {
    font: inherit;
    font-weight: 500;
    border: none;
    border-radius: 18px;
    padding: 8px 16px;
    cursor: pointer;
    background: var(--primary-color, #03a9f4);
    color: var(--text-primary-color, #fff);
    min-height: 36px;
  }
  button.secondary {
    background: transparent;
    color: var(--primary-color, #03a9f4);
    border: 1px solid var(--divider-color, #ccc);
  }
  button.danger { background: var(--error-color, #db4437); color: var(--text-primary-color, #fff); }
  button[disabled] { opacity: 0.5; cursor: default; }
  .muted { color: var(--secondary-text-color); }
  .small { font-size: 12px; }
  .error {
    color: var(--error-color, #db4437);
    border-left: 4px solid var(--error-color, #db4437);
    padding: 8px 12px;
    background: rgba(219, 68, 55, 0.08);
    border-radius: 4px;
    margin: 8px 0;
  }
  .warning {
    border-left: 4px solid var(--warning-color, #ffa600);
    padding: 8px 12px;
    background: rgba(255, 166, 0, 0.12);
    border-radius: 4px;
    margin: 8px 0;
  }
  .ok-note {
    border-left: 4px solid var(--success-color, #43a047);
    padding: 8px 12px;
    background: rgba(67, 160, 71, 0.1);
    border-radius: 4px;
    margin: 8px 0;
  }
  .chips { display: flex; flex-wrap: wrap; gap: 6px; }
  .chip {
    display: inline-flex;
    gap: 4px;
    align-items: center;
    border-radius: 12px;
    padding: 2px 10px;
    font-size: 12px;
    background: var(--secondary-background-color, #eee);
    border: 1px solid var(--divider-color, #ddd);
    white-space: nowrap;
  }
  .chip b { font-weight: 500; color: var(--secondary-text-color); }
  .chip.out { border-color: var(--error-color, #db4437); }
  .chip.in { border-color: var(--success-color, #43a047); }
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; }
  th, td {
    text-align: left;
    padding: 6px 8px;
    border-bottom: 1px solid var(--divider-color, #e0e0e0);
    vertical-align: top;
  }
  th { font-weight: 500; color: var(--secondary-text-color); font-size: 12px; }
  tr.selected td { background: rgba(3, 169, 244, 0.08); }
  code, pre {
    font-family: var(--code-font-family, monospace);
    font-size: 12px;
  }
  pre {
    background: var(--code-editor-background-color, var(--secondary-background-color, #f5f5f5));
    padding: 12px;
    border-radius: 8px;
    overflow: auto;
    max-height: 420px;
    margin: 0;
    white-space: pre-wrap;
    word-break: break-word;
  }
  .bar {
    position: relative;
    height: 8px;
    min-width: 80px;
    background: var(--divider-color, #e0e0e0);
    border-radius: 4px;
    overflow: hidden;
  }
  .bar > span {
    position: absolute;
    left: 0; top: 0; bottom: 0;
    background: var(--primary-color, #03a9f4);
  }
  .bar.semantic > span { background: var(--accent-color, #ff9800); }
  .bar.recency > span { background: var(--success-color, #43a047); }
  .bars { display: grid; grid-template-columns: auto 1fr auto; gap: 2px 6px; align-items: center;
          font-size: 11px; min-width: 160px; }
  .progress {
    height: 4px;
    overflow: hidden;
    position: relative;
    background: rgba(3, 169, 244, 0.15);
    border-radius: 2px;
    margin: 8px 0;
  }
  .progress::after {
    content: "";
    position: absolute;
    left: -40%;
    width: 40%;
    top: 0; bottom: 0;
    background: var(--primary-color, #03a9f4);
    animation: slide 1.1s infinite ease-in-out;
  }
  @keyframes slide { to { left: 100%; } }
  .big-number { font-size: 28px; font-weight: 400; }
  .stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 12px; }
  .stat { padding: 12px; border-radius: 8px; background: var(--secondary-background-color, #f5f5f5); }
  .stat .label { color: var(--secondary-text-color); font-size: 12px; }
  .tree ul { list-style: none; margin: 0; padding-left: 18px; border-left: 1px dashed var(--divider-color, #ccc); }
  .tree > ul { padding-left: 0; border-left: none; }
  .tree li { margin: 2px 0; }
  .op { font-weight: 500; color: var(--primary-color, #03a9f4); }
  .caret { color: var(--error-color, #db4437); }
  .diff-add { background: rgba(67, 160, 71, 0.18); }
  .diff-del { background: rgba(219, 68, 55, 0.18); text-decoration: line-through; }
  .list-item {
    display: flex; gap: 8px; align-items: center; justify-content: space-between;
    padding: 10px 0; border-bottom: 1px solid var(--divider-color, #e0e0e0);
  }
  .list-item:last-child { border-bottom: none; }
  .clickable { cursor: pointer; }
  .banner {
    padding: 10px 14px;
    border-radius: 8px;
    margin-bottom: 12px;
    background: rgba(255, 166, 0, 0.15);
    border: 1px solid var(--warning-color, #ffa600);
  }
  @media (max-width: 600px) {
    .card { padding: 12px; border-radius: 8px; }
    .hide-narrow { display: none; }
    /* On a phone a table of class "cards" shows each row as a card of its own lines: a table
       scrolled sideways hid its right-hand columns (scores, bars, states) off the screen. */
    table.cards thead { display: none; }
    table.cards tr { display: block; padding: 8px 0;
      border-bottom: 1px solid var(--divider-color, rgba(127, 127, 127, 0.3)); }
    table.cards td { display: block; border: none; padding: 2px 0; overflow-wrap: anywhere; }
    table.cards td.hide-narrow { display: block; }
    table.cards .bars, table.cards .bar { min-width: 0; }
  }
`;
