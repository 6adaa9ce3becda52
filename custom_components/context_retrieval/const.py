"""Constants of the Context Retrieval integration: option keys and their defaults, service
names, limits and what a service call leaves out. Every default of the integration is here,
once; the engine (`core`) keeps its own defaults for when it is used without Home Assistant,
and a test checks the two agree where they meet."""

from __future__ import annotations

import logging
from typing import Final

from .core.questions.llm import MAX_QUESTION
from .core.rename import MAX_FIND_LEN, MAX_NAME_LEN, MAX_REPLACE_LEN
from .core.search import NAME_LIMIT
from .core.views.model import MAX_RULE_LENGTH
from .core.views.schema import MAX_NAME_LENGTH

DOMAIN: Final = "context_retrieval"
LOGGER = logging.getLogger(__package__)

# Options (config entry data/options keys).
CONF_AGENT_ID: Final = "agent_id"
CONF_LANGUAGE: Final = "language"
CONF_TOP_K: Final = "top_k"
CONF_EPSILON: Final = "epsilon"
CONF_KEYWORD_WEIGHT: Final = "keyword_weight"
CONF_VECTOR_WEIGHT: Final = "vector_weight"
CONF_TOKEN_BUDGET: Final = "token_budget"
CONF_COMMAND_PARSER: Final = "command_parser"
CONF_LLM_PROVIDER: Final = "llm_provider"
CONF_LLM_ENTITY: Final = "llm_entity"
CONF_LLM_AGENT: Final = "llm_agent"
CONF_LLM_TIMEOUT: Final = "llm_timeout"
CONF_ANSWER_QUESTIONS: Final = "answer_questions"
CONF_CONFIRM_SECURITY: Final = "confirm_security"
CONF_QUERY_AUTO_USE: Final = "query_auto_use"
CONF_QUERY_SUGGEST: Final = "query_suggest"
CONF_QUERY_SUGGEST_LIMIT: Final = "query_suggest_limit"
CONF_SEMANTIC_TIMEOUT: Final = "semantic_timeout"
CONF_EMBEDDING_KIND: Final = "embedding_kind"
CONF_EMBEDDING_URL: Final = "embedding_url"
CONF_EMBEDDING_MODEL: Final = "embedding_model"
CONF_EMBEDDING_API_KEY: Final = "embedding_api_key"
CONF_EMBEDDING_TIMEOUT: Final = "embedding_timeout"
EMBEDDING_NONE: Final = "none"
EMBEDDING_KINDS: Final = (EMBEDDING_NONE, "openai", "ollama")

LANGUAGE_AUTO: Final = "auto"
HOME_ASSISTANT_AGENT: Final = "conversation.home_assistant"

PARSER_RULES: Final = "rules"
PARSER_LLM: Final = "llm"
PARSER_LLM_FALLBACK: Final = "llm_with_fallback"
PARSERS: Final = (PARSER_RULES, PARSER_LLM, PARSER_LLM_FALLBACK)

LLM_NONE: Final = "none"
LLM_AI_TASK: Final = "ai_task"
LLM_AGENT: Final = "conversation_agent"
LLM_PROVIDERS: Final = (LLM_NONE, LLM_AI_TASK, LLM_AGENT)

# The options' defaults: a new entry's, and those of any key an older entry lacks.
DEFAULTS: Final = {
    CONF_AGENT_ID: HOME_ASSISTANT_AGENT,
    CONF_LANGUAGE: LANGUAGE_AUTO,
    CONF_TOP_K: 5,
    CONF_EPSILON: 0.05,
    CONF_KEYWORD_WEIGHT: 1.0,
    CONF_VECTOR_WEIGHT: 0.3,
    CONF_TOKEN_BUDGET: 1500,
    CONF_COMMAND_PARSER: PARSER_RULES,
    CONF_LLM_PROVIDER: LLM_NONE,
    CONF_LLM_TIMEOUT: 5.0,
    CONF_ANSWER_QUESTIONS: True,
    CONF_CONFIRM_SECURITY: True,
    CONF_QUERY_AUTO_USE: 0.95,
    CONF_QUERY_SUGGEST: 0.8,
    CONF_QUERY_SUGGEST_LIMIT: 5,
    CONF_SEMANTIC_TIMEOUT: 2.0,
    CONF_EMBEDDING_KIND: EMBEDDING_NONE,
    CONF_EMBEDDING_TIMEOUT: 2.0,
}

# The LLM API registered with Home Assistant.
LLM_API_ID: Final = "context_retrieval"
LLM_API_NAME: Final = "Context Retrieval"

# How long registry changes are collected before the index is rebuilt.
REBUILD_DEBOUNCE_SECONDS: Final = 1.0
# Timings kept for diagnostics.
TIMINGS_KEPT: Final = 50

SERVICE_RETRIEVE: Final = "retrieve"
SERVICE_REBUILD_INDEX: Final = "rebuild_index"
SERVICE_SEARCH: Final = "search"
SERVICE_RENAME_PREVIEW: Final = "rename_preview"
SERVICE_RENAME_EXECUTE: Final = "rename_execute"
SERVICE_RENAME_ROLLBACK: Final = "rename_rollback"
# What a service accepts, checked by its schema before anything runs. Where the engine has a
# limit of its own, the schema takes that one, so a request is refused up front and never
# half-way through.
MAX_TEXT_CHARS: Final = 10_000  # retrieve text, search query (the engine reads fewer)
MAX_QUESTION_CHARS: Final = MAX_QUESTION
MAX_FIND_CHARS: Final = MAX_FIND_LEN
MAX_REPLACE_CHARS: Final = MAX_REPLACE_LEN
MAX_VIEW_NAME_CHARS: Final = MAX_NAME_LENGTH
MAX_VIEW_RULE_CHARS: Final = MAX_RULE_LENGTH
MAX_PLAN_JSON_CHARS: Final = 100_000  # a plan given as JSON text
MAX_ID_CHARS: Final = 200  # plan, snapshot, revision and conversation ids
MAX_LANGUAGE_CHARS: Final = 35  # the longest BCP 47 tag in use
MAX_LIST_OFFSET: Final = 1_000_000
# A name in a service answer (the search service's own limit).
MAX_SHOWN_NAME_CHARS: Final = NAME_LIMIT
# A reason the retrieval gives for a candidate (it may quote the words of a name).
MAX_REASON_CHARS: Final = 200
# The notes of a command `retrieve` shows without `explain`: how it was read, and why something
# is missing, degraded or cut short; every stage's notes come with `explain`.
CONCISE_NOTES: Final = frozenset(
    {
        "language",
        "parser",
        "parse_degraded",
        "semantic_degraded",
        "vector_unavailable",
        "text_truncated",
        "spelling_repaired",
        "no_match",
        "reference_unresolved",
        "here_without_area",
        "clarification_cancelled",
        "capability_removed_count",
    }
)
# The longest sentence the agent says (and writes into the chat log) itself.
MAX_SPEECH_CHARS: Final = 1000
# One step of "warmer", "dim it a bit", "调高一点" said without an amount, by setting: degrees
# for a temperature, percentage points for the rest.
RELATIVE_STEPS: Final = {
    "temperature": 1.0,
    "brightness": 20.0,
    "volume": 10.0,
    "fan_speed": 25.0,
    "position": 25.0,
    "humidity": 5.0,
}
# Retrieve, search and question calls in progress at once; the excess is told to retry.
MAX_CONCURRENT_CALLS: Final = 64
BACKPRESSURE_RETRY_MS: Final = 200

# What a service call leaves out (services.yaml shows the same values in the UI).
SEARCH_STRATEGIES: Final = ("keyword", "semantic", "hybrid")
DEFAULT_SEARCH_STRATEGY: Final = "hybrid"
DEFAULT_SEARCH_PAGE_SIZE: Final = 20
DEFAULT_SEARCH_MIN_SCORE: Final = 0.25
# The LLM API's device lookup: how many matches it weighs, how long an argument may be, and
# the most of the model's context its answer may take (less when the options' budget is less).
LOOKUP_MAX_CONSIDERED: Final = 50
LOOKUP_MAX_SEARCHED: Final = 200  # name matches weighed before the area and domain filters
LOOKUP_RELATIVE_SCORE: Final = 0.6  # of the best name match, for a match to be shown
LOOKUP_MAX_FIELD_CHARS: Final = 200
LOOKUP_TOKEN_BUDGET: Final = 600
# The LLM API's prompt: the home's outline (floors, areas, device counts) takes at most this
# much; the relevant-devices tool remembers this many (turn, request) answers.
OUTLINE_TOKEN_BUDGET: Final = 600
RELEVANT_MEMO_KEPT: Final = 64
# What the pre-step agent forwards when nothing in the home is relevant to a turn: said every
# time, so that no LLM agent keeps the previous turn's devices (an empty extra system prompt
# keeps the previous one in Home Assistant's chat log).
NOTHING_RELEVANT_THIS_TURN: Final = (
    "# No device of this home is relevant to the current request (this turn); devices of "
    "earlier requests do not apply to it."
)
RENAME_TARGETS: Final = ("names", "aliases", "both")
DEFAULT_RENAME_TARGET: Final = "names"
# Whole words by default: "台灯" must not rename the balcony light 阳台灯 to 阳书桌灯.
DEFAULT_RENAME_WHOLE_WORD: Final = True
# Rows a preview may leave out (entity ids); more than a preview shows makes no sense.
MAX_RENAME_EXCLUDE: Final = 500
# A name before and after a rename, as the preview shows it (the longest a rename writes).
MAX_SHOWN_RENAME_CHARS: Final = MAX_NAME_LEN
# The longest entity, device, area, floor or label name (or alias) the engine reads: longer
# ones are cut when the home is read, before anything else looks at them.
MAX_RECORD_NAME_CHARS: Final = MAX_NAME_LEN
# Home Assistant serialises its entity registry a moment before the file is written: a rename
# older than the file by this much is in it.
REGISTRY_SAVED_MARGIN_SECONDS: Final = 2.0
DEFAULT_PLAN_LIST_LIMIT: Final = 100

# View rules.
SERVICE_PREVIEW_VIEW_RULE: Final = "preview_view_rule"
SERVICE_PUBLISH_VIEW_RULE: Final = "publish_view_rule"
SERVICE_DELETE_VIEW_RULE: Final = "delete_view_rule"
SERVICE_LIST_VIEW_RULES: Final = "list_view_rules"
SERVICE_LIST_VIEW_RULE_REVISIONS: Final = "list_view_rule_revisions"
SERVICE_ROLLBACK_VIEW_RULE: Final = "rollback_view_rule"

EVENT_VIEW_COMPILE_STARTED: Final = "context_retrieval_view_rule_compile_started"
EVENT_VIEW_COMPILE_SUCCEEDED: Final = "context_retrieval_view_rule_compile_succeeded"
EVENT_VIEW_COMPILE_FAILED: Final = "context_retrieval_view_rule_compile_failed"
EVENT_VIEW_PREVIEW_EXECUTED: Final = "context_retrieval_view_rule_preview_executed"
EVENT_VIEW_PUBLISHED: Final = "context_retrieval_view_rule_published"
EVENT_VIEW_DELETED: Final = "context_retrieval_view_rule_deleted"
EVENT_VIEW_ROLLED_BACK: Final = "context_retrieval_view_rule_rolled_back"
EVENT_VIEW_MEMBERSHIP_CHANGED: Final = "context_retrieval_view_membership_changed"

# The SQLite file of published view rules, in the config directory.
VIEW_DB_FILE: Final = "context_retrieval_views.db"
# A model gets at least this long to rewrite a view rule or plan a question (a person is
# waiting, not a voice).
VIEW_LLM_TIMEOUT: Final = 15.0
# Preview timings kept for the p95 in diagnostics.
VIEW_PREVIEWS_KEPT: Final = 200

# Natural questions.
SERVICE_NATURAL_QUERY: Final = "natural_query"
SERVICE_NATURAL_QUERY_SUGGEST: Final = "natural_query_suggest"
SERVICE_LIST_QUERY_PLANS: Final = "list_query_plans"
SERVICE_GET_QUERY_PLAN: Final = "get_query_plan"
SERVICE_UPDATE_QUERY_PLAN: Final = "update_query_plan"
SERVICE_DELETE_QUERY_PLAN: Final = "delete_query_plan"
# The SQLite file of cached question plans, in the config directory.
QUERY_DB_FILE: Final = "context_retrieval_queries.db"
# Question timings kept for the p95 in diagnostics.
QUERY_TIMINGS_KEPT: Final = 200
