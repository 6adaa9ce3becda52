// The bundle's entry: define the panel and its pages (once, even if loaded twice).
import { CrHealth } from "./pages/health";
import { CrQuestions } from "./pages/questions";
import { CrRename } from "./pages/rename";
import { CrSearch } from "./pages/search";
import { CrTry } from "./pages/try";
import { CrViews } from "./pages/views";
import { ContextRetrievalPanel } from "./panel";

const ELEMENTS: [string, CustomElementConstructor][] = [
  ["cr-try", CrTry],
  ["cr-views", CrViews],
  ["cr-questions", CrQuestions],
  ["cr-search", CrSearch],
  ["cr-rename", CrRename],
  ["cr-health", CrHealth],
  ["context-retrieval-panel", ContextRetrievalPanel],
];

for (const [name, element] of ELEMENTS) {
  if (!customElements.get(name)) customElements.define(name, element);
}
