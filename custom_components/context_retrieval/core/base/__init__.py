"""What every feature of the engine shares: text and language data, the home's records and its
index, keyword and vector recall, reading an utterance, the SQLite store base and the helper
that reads JSON out of a model's answer. Nothing here imports a feature package."""
