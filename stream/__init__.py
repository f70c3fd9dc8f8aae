"""citegate: streaming citation verification for RAG answers."""

__version__ = "0.1.0"
