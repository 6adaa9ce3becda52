"""A real Home Assistant with the demo home: `scripts/develop`, the end-to-end and browser tests,
and the load benchmark.

What it does, in order:

1. Config folder. `demo/config/` (configuration.yaml, packages/) is copied to the target folder
   (`./config` for development, a temporary folder for the tests) the first time or with
   `--reset`; `packages/demo_home.yaml` is written from `demo/home.json` (again whenever that
   file changes); `custom_components/context_retrieval` is symlinked into it, so edits to the
   integration need only a restart.
2. Entities. Every entity of the demo home becomes a real Home Assistant entity that changes
   state when it is switched: template light/switch/fan/cover/lock/vacuum/sensor/binary_sensor
   backed by hidden `input_boolean`/`input_number` helpers, `generic_thermostat` climates,
   `generic_hygrostat` humidifiers, `universal` media players, YAML scenes and scripts. Water
   heaters have no such core platform and are left out, and device names cannot be given to
   YAML entities. The newer `template:` syntax is used for every domain the installed Home
   Assistant accepts it for, the legacy platform syntax for the rest (2025.4 has the new syntax
   only for light/switch/sensor/binary_sensor; the legacy one is deprecated from 2025.12 and
   goes away in 2026). Every entity has a unique id (`dh.<entity_id>`), by which its registry
   entry is renamed to the id of home.json (the new syntax derives ids from the Chinese names).
3. Home Assistant runs as a child process (`python -m homeassistant --skip-pip`, so nothing is
   ever downloaded) in its own process group, which is terminated, then killed, on exit; exit
   code 100 (restart from the UI) starts it again. The interpreter is this one, or the one
   `$DEVHOME_PYTHON` names (the newest tier runs the e2e tests in the venv of Home Assistant
   2026.10.4 against a server of 2026.11.0); what the generator needs to know about the
   installed Home Assistant is asked of that interpreter. It always loads `frontend`, and goes into
   recovery mode when that fails: without the home-assistant-frontend package a one-page
   stand-in is served through the frontend's `development_repo` option.
4. Onboarding. Before the first start `.storage/onboarding` marks every step but "user" done
   (the core-config step would set up met/radio_browser/google_translate, which are not
   installed); the owner is then created through `POST /api/onboarding/users` and later runs log
   in through the ordinary login flow.
5. Registries, through the websocket API after start (`config/floor_registry/*`,
   `config/area_registry/*`, `config/label_registry/*`, `config/entity_registry/update`,
   `homeassistant/expose_entity`). Why not write the `.storage` files before the first start:
   their schemas carry versions that change between releases (created_at/modified_at, categories,
   alias lists, …), entity entries must match the platform's unique ids and config entries
   exactly, and a file of a newer version than the running Home Assistant refuses to load. The
   websocket commands are what Home Assistant's own UI uses and stay stable from 2025.4 to 2026.x;
   Home Assistant validates and migrates everything they write. Floors and areas are created
   under their home.json id and then renamed, so `area_id`s are `living_room`, `kitchen`, ….
6. The integration: a config entry through the config-flow REST API (handler
   `context_retrieval`, downstream agent `conversation.home_assistant`), the preferred Assist
   pipeline's conversation engine set to its agent, its index rebuilt.
7. A long-lived access token (websocket `auth/long_lived_access_token`) in `<config>/.token`,
   the login in `<config>/.devhome.json`.
8. HTTP settings. From 2026.10 Home Assistant moves the `http:` YAML (loopback address, port)
   into its storage on the first start, as a pending config that reverts to the default (all
   interfaces, port 8123) with a restart five minutes later unless confirmed; it is confirmed
   through `http/config/promote`, and later starts of that folder use the stored port.

Registries are seeded on the first start and whenever demo/home.json changes; the config entry,
the pipeline and the token are checked on every start. Run `scripts/develop --help`.

The modules, in that order: common (paths and names), facts (the installed Home Assistant),
package (home.json as configuration), config_dir (1), process (3), api (HTTP, websocket, login),
seed (5), set_up (4, 6-8 and `running`), cli (`python scripts/devhome`). This module gathers
what the tests and benchmarks use; the scripts load it from its folder (scripts/ is no package).
"""

from __future__ import annotations

from .api import Api, log_in
from .common import (
    HOME_FILE,
    LOG_FILE,
    PASSWORD,
    ROOT,
    TOKEN_FILE,
    USERNAME,
    DevHomeError,
)
from .config_dir import prepare_config, read_state, write_state
from .facts import hass_facts, modern_template_domains, release
from .package import Emulated, Plan, build_plan, home_hash, literal, load_home
from .process import free_port, integration_records, log_tail, start_server, stop_server
from .set_up import DevHome, async_set_up, running, server_port

__all__ = [
    "HOME_FILE",
    "LOG_FILE",
    "PASSWORD",
    "ROOT",
    "TOKEN_FILE",
    "USERNAME",
    "Api",
    "DevHome",
    "DevHomeError",
    "Emulated",
    "Plan",
    "async_set_up",
    "build_plan",
    "free_port",
    "hass_facts",
    "home_hash",
    "integration_records",
    "literal",
    "load_home",
    "log_in",
    "log_tail",
    "modern_template_domains",
    "prepare_config",
    "read_state",
    "release",
    "running",
    "server_port",
    "start_server",
    "stop_server",
    "write_state",
]
