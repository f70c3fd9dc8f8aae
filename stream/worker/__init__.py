"""The live worker: Faust hosts it, an aiokafka batch loop drives `Stage`, a compacted topic
keeps the duplicate index. Kafka, corpus and metrics are wired here, nowhere else."""
