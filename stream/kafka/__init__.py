"""Kafka at the edge: client settings, topic creation, sending, and the embedded broker."""
