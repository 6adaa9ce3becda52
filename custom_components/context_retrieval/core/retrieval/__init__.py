"""Retrieval: from an utterance to the few entities it is about, one module per stage.

`pipeline` only orders the stages: parse (`base.parse`, or `command_parser` with a model) →
`scope` → recall (`recall`, `scoring`) → resolve (`resolve`, `names`, `device_types`,
`capability`, `references`) → `gate` (ask back when unsure) → `render` (the YAML context).
"""
