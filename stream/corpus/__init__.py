"""Versioned document stores (SQLite, PostgreSQL, documents.json) and the cache in front."""
