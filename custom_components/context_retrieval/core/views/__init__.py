"""View rules: a boolean rule over tags written in words, compiled to canonical JSON, stored
with its revisions and evaluated against the home's tags."""
