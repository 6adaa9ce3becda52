"""End-to-end tests: a real `hass` process with the demo home, driven over its REST API."""
