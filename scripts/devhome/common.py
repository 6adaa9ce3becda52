"""Paths, names and the error every part of the demo home shares."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository
TEMPLATE_DIR = ROOT / "demo" / "config"
HOME_FILE = ROOT / "demo" / "home.json"
INTEGRATION_DIR = ROOT / "custom_components" / "context_retrieval"
DOMAIN = "context_retrieval"
BLUEPRINTS_DIR = ROOT / "blueprints"
# Views published in the demo (name, rule): what a homeowner might set up first.
DEMO_VIEWS = (
    ("节日装饰", "圣诞装饰 或 阳台"),
    ("Christmas", "圣诞装饰"),
    ("Upstairs lights", "lights and upstairs"),
)
DEFAULT_PORT = 8123
PORT_ENV = "DEVHOME_PORT"
PYTHON_ENV = "DEVHOME_PYTHON"  # the interpreter that runs Home Assistant (default: this one)
HOST = "127.0.0.1"
USERNAME = "dev"
PASSWORD = "dev-home"
DOWNSTREAM_AGENT = "conversation.home_assistant"
STATE_FILE = ".devhome.json"
TOKEN_FILE = ".token"
STDOUT_FILE = "hass.stdout.log"
LOG_FILE = "home-assistant.log"
PACKAGE_FILE = Path("packages") / "demo_home.yaml"
RESTART_EXIT_CODE = 100  # Home Assistant asks to be started again (restart from the UI)


class DevHomeError(RuntimeError):
    """Home Assistant could not be started or set up; the message says why."""
