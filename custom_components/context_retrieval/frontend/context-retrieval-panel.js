customElements.define('context-retrieval-panel', class extends HTMLElement {});
