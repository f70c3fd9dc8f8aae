"""Semantic checkers at the edge: the async protocol, the rules checker's config files, the
LLM checker, the cascade, and the factory that builds one from settings."""
