"""Natural questions about the home: a question compiles to a query plan (data, never code),
which runs read-only over entity states and is answered in the asker's language; plans are
cached and reused."""
